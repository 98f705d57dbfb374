import { expect } from "chai";
import fc from "fast-check";
import { coinBit } from "./coin-stream";
import { fitsExactDoubles, monkeySums, monkeySumsBig } from "./monkey-sums";

/** The definition, one bit at a time. */
function naiveSums(units: number[], stream: Uint8Array, monkeys: number): number[] {
  return Array.from({ length: monkeys }, (_, m) =>
    units.reduce((sum, q, c) => sum + (coinBit(stream, m * units.length + c) ? q : -q), 0),
  );
}

const units = fc.array(fc.integer({ min: -(10 ** 12), max: 10 ** 12 }), { maxLength: 40 });
const streamFor = (calls: number, monkeys: number) =>
  fc.uint8Array({
    minLength: Math.ceil((calls * monkeys) / 8) + 1,
    maxLength: Math.ceil((calls * monkeys) / 8) + 1,
  });

describe("monkeySums", () => {
  it("equals the bit-by-bit definition (eight-coin tables, unaligned windows)", () => {
    fc.assert(
      fc.property(
        units.chain((q) =>
          fc
            .tuple(fc.constant(q), fc.integer({ min: 1, max: 24 }))
            .chain(([q, m]) => fc.tuple(fc.constant(q), fc.constant(m), streamFor(q.length, m))),
        ),
        ([q, monkeys, stream]) => {
          const fast = monkeySums(Float64Array.from(q), stream, monkeys);
          expect([...fast]).to.deep.equal(naiveSums(q, stream, monkeys));
          expect(monkeySumsBig(q, stream, monkeys)).to.deep.equal(fast.length ? [...fast].map(BigInt) : []);
        },
      ),
    );
  });

  it("hand case: n = 3, stream 1010 1101 …: monkey 0 = +q0 −q1 +q2, monkey 1 = −q0 +q1 +q2", () => {
    const stream = Uint8Array.of(0b1010_1101, 0);
    expect([...monkeySums(Float64Array.of(1, 10, 100), stream, 2)]).to.deep.equal([
      1 - 10 + 100,
      -1 + 10 + 100,
    ]);
  });

  it("with no calls every monkey sums to 0", () => {
    expect([...monkeySums(new Float64Array(0), new Uint8Array(1), 4)]).to.deep.equal([0, 0, 0, 0]);
  });

  it("stays exact past 2⁵³ in the bigint path", () => {
    const big = 2 ** 53; // 2⁵³ + 1 is not a double; the bigint sum still gets it
    const stream = Uint8Array.of(0b1100_0000, 0);
    expect(fitsExactDoubles([big, 1])).to.equal(false);
    expect(monkeySumsBig([big, 1], stream, 1)).to.deep.equal([2n ** 53n + 1n]);
  });

  it("knows where doubles stop being exact", () => {
    expect(fitsExactDoubles([Number.MAX_SAFE_INTEGER - 1, -1])).to.equal(true);
    expect(fitsExactDoubles([Number.MAX_SAFE_INTEGER, 1])).to.equal(false);
    expect(fitsExactDoubles([])).to.equal(true);
  });
});
