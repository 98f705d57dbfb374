import { expect } from "chai";
import fc from "fast-check";
import { RepeatedTimes } from "./repeated-times";

/** The plain reference: a set of every (agent, time) seen; the index of the first repeat, or -1. */
function firstRepeatNaive(rows: readonly (readonly [string, number])[]): number {
  const seen = new Set<string>();
  for (let i = 0; i < rows.length; i++) {
    const key = `${rows[i]![0]}|${rows[i]![1]}`;
    if (seen.has(key)) return i;
    seen.add(key);
  }
  return -1;
}

function firstRepeat(rows: readonly (readonly [string, number])[]): number {
  const index = new RepeatedTimes((j) => rows[j]!);
  for (let i = 0; i < rows.length; i++) if (index.repeats(rows[i]![0], rows[i]![1])) return i;
  return -1;
}

describe("RepeatedTimes", () => {
  it("property: reports the same first repeated (agent, time) as a set of every pair", () => {
    const row = fc.tuple(fc.constantFrom("a", "b", "c"), fc.integer({ min: 0, max: 12 }));
    fc.assert(
      fc.property(fc.array(row, { maxLength: 30 }), (rows) => {
        expect(firstRepeat(rows)).to.equal(firstRepeatNaive(rows));
      }),
    );
  });

  it("finds a repeat after rows in order, one out of order, and a repeat of a time before it", () => {
    const rows = [
      ["a", 1],
      ["b", 1],
      ["a", 3],
      ["a", 2], // out of order: the index switches to sets here
      ["b", 2],
      ["a", 1], // repeats row 0
    ] as const;
    expect(firstRepeat(rows)).to.equal(5);
    expect(firstRepeat(rows.slice(0, 5))).to.equal(-1);
  });
});
