import { expect } from "chai";
import fc from "fast-check";
import type { Hex32 } from "../hex";
import { referenceRoot } from "../merkle/testing";
import { seal } from "../seal";
import { fakeSeal, hoursAfterStart, SEASON_START } from "./fixture";
import { foldSnapshots } from "./snapshot-fold";
import type { SnapshotInput } from "./types";

const START = Date.parse(SEASON_START);
const HEX32 = /^0x[0-9a-fA-F]{64}$/;

/**
 * The reference: the in-window rows in time order (stable sort), each sealed by the general
 * RFC 8785 seal unless it carries one, the recursive RFC 9162 root over those seals, and the
 * numbers read with Number. Throws the error the fold must throw for a malformed seal.
 */
function referenceFold(rows: readonly SnapshotInput[], clock: number) {
  const kept = rows
    .filter((r) => Date.parse(r.at) >= START && Date.parse(r.at) <= clock)
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  const seals = kept.map((r) => r.seal ?? seal(r));
  const bad = seals.findIndex((s) => !HEX32.test(s));
  if (bad >= 0) throw new Error(`snapshots (seal)[${bad}]: is not 0x followed by 64 hex digits`);
  return {
    count: kept.length,
    root: referenceRoot(seals as Hex32[]),
    firstSeal: seals[0] ?? null,
    lastSeal: seals[seals.length - 1] ?? null,
    firstMs: kept.length > 0 ? Date.parse(kept[0]!.at) : NaN,
    series: {
      nav: Float64Array.from(kept, (r) => Number(r.nav)),
      flow: Float64Array.from(kept, (r) => Number(r.flow)),
      invested: Float64Array.from(kept, (r) => r.invested),
    },
  };
}

const decimal = fc.oneof(
  fc.integer({ min: 1, max: 10_000_000 }).map((cents) => cents / 100),
  fc.integer({ min: 1, max: 10_000_000 }).map((cents) => (cents / 100).toString()),
);
/** A seal given with the row (the engine's), none (sealed here), or now and then a malformed one. */
const givenSeal = fc.oneof(
  { weight: 6, arbitrary: fc.nat().map((n) => fakeSeal(n) as string) },
  { weight: 6, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constantFrom("0x12", `0x${"G".repeat(64)}`, `0x${"\u0130".repeat(64)}`) },
);
const row = (hour: number) =>
  fc
    .record({
      nav: decimal,
      flow: decimal,
      invested: fc.double({ min: 0, max: 1, noNaN: true }),
      seal: givenSeal,
    })
    .map(
      ({ seal: s, ...rest }): SnapshotInput => ({
        agent: "me",
        at: hoursAfterStart(hour),
        ...rest,
        ...(s === undefined ? {} : { seal: s as Hex32 }),
      }),
    );
/** Hours mostly in order inside [0, clock]; some runs shuffled, before the start or after the clock. */
const season = fc
  .record({
    hours: fc.uniqueArray(fc.integer({ min: -3, max: 40 }), { maxLength: 30 }),
    sorted: fc.boolean(),
    clockHour: fc.integer({ min: 0, max: 45 }),
  })
  .chain(({ hours, sorted, clockHour }) => {
    const order = sorted ? [...hours].sort((a, b) => a - b) : hours;
    return fc.tuple(fc.tuple(...order.map(row)), fc.constant(Date.parse(hoursAfterStart(clockHour))));
  });

describe("snapshot fold (one pass over rows in order)", () => {
  it("property: gives the reference's root, ends, times and series, or its error, for rows in any order", () => {
    fc.assert(
      fc.property(season, ([rows, clock]) => {
        let expected: ReturnType<typeof referenceFold>;
        try {
          expected = referenceFold(rows, clock);
        } catch (error) {
          expect(() => foldSnapshots(rows, START, clock)).to.throw((error as Error).message);
          return;
        }
        expect(foldSnapshots(rows, START, clock)).to.deep.equal(expected);
      }),
    );
  });

  it("folds rows already in order without reordering them, and a shuffled copy to the same result", () => {
    const rows: SnapshotInput[] = [0, 1, 2, 3].map((h) => ({
      agent: "me",
      at: hoursAfterStart(h),
      nav: 100 + h,
      flow: 0,
      invested: 0.5,
      ...(h % 2 ? { seal: fakeSeal(h) } : {}),
    }));
    const clock = Date.parse(hoursAfterStart(3));
    const folded = foldSnapshots(rows, START, clock);
    expect(folded.count).to.equal(4);
    expect(folded.lastSeal).to.equal(fakeSeal(3));
    expect(folded.firstSeal).to.equal(seal(rows[0]));
    expect(foldSnapshots([rows[2]!, rows[0]!, rows[3]!, rows[1]!], START, clock)).to.deep.equal(folded);
    // The last row past the clock is left out, wherever it sits.
    expect(foldSnapshots(rows, START, clock - 1).count).to.equal(3);
  });

  it("names a malformed seal by its place in time order, not in the order given", () => {
    const early = { agent: "me", at: hoursAfterStart(1), nav: 100, flow: 0, invested: 0 };
    const bad = { ...early, at: hoursAfterStart(2), seal: "0x12" as Hex32 };
    // Given second-hour first: the one pass meets it at [0], the ordered fold at [1].
    expect(() => foldSnapshots([bad, early], START, Date.parse(hoursAfterStart(3)))).to.throw(
      "snapshots (seal)[1]: is not 0x followed by 64 hex digits",
    );
  });

  it("lets any other error out of the one pass as it is, without a second fold", () => {
    const throwing = (name: string) =>
      ({
        toJSON: () => {
          throw new Error(name);
        },
      }) as unknown as number;
    const second = { agent: "me", at: hoursAfterStart(2), nav: throwing("hour 2"), flow: 0, invested: 0 };
    const first = { ...second, at: hoursAfterStart(1), nav: throwing("hour 1") };
    // Folded again in time order, the hour-1 row would throw first.
    expect(() => foldSnapshots([second, first], START, Date.parse(hoursAfterStart(3)))).to.throw("hour 2");
  });
});
