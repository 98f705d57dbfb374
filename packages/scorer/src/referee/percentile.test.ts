import { expect } from "chai";
import fc from "fast-check";
import { nearestRankQuantiles, percentileOf } from "./percentile";

describe("percentileOf", () => {
  it("counts monkeys below, and ties as half", () => {
    // Monkeys 1, 2, 2, 3 against 2: one below, two equal → (1 + ½ × 2) / 4 = 50 %.
    expect(percentileOf(2, [1, 2, 2, 3])).to.deep.equal({ below: 1, equal: 2, percentile: 50 });
    expect(percentileOf(3, [1, 2, 2, 3])).to.deep.equal({ below: 3, equal: 1, percentile: 87.5 });
    expect(percentileOf(0, [0, 0, 0, 0]).percentile).to.equal(50);
    expect(percentileOf(9, [1, 2]).percentile).to.equal(100);
    expect(percentileOf(0, [1, 2]).percentile).to.equal(0);
  });

  it("works the same on bigints", () => {
    expect(percentileOf(2n, [1n, 2n, 2n, 3n])).to.deep.equal({ below: 1, equal: 2, percentile: 50 });
  });

  it("stays in [0, 100] and is monotone in the agent's sum", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer(), { minLength: 1, maxLength: 64 }),
        fc.integer(),
        fc.integer(),
        (m, a, b) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          const p = percentileOf(lo, m).percentile;
          expect(p).to.be.within(0, 100);
          expect(percentileOf(hi, m).percentile).to.be.at.least(p);
        },
      ),
    );
  });
});

describe("nearestRankQuantiles", () => {
  it("takes sorted[⌈p × N / 100⌉ − 1]", () => {
    const values = Array.from({ length: 2048 }, (_, i) => 2047 - i); // 0 … 2047, reversed
    const q = nearestRankQuantiles(values);
    expect(q).to.deep.equal({
      min: 0,
      p1: 20,
      p5: 102,
      p10: 204,
      p25: 511,
      p50: 1023,
      p75: 1535,
      p90: 1843,
      p95: 1945,
      p99: 2027,
      max: 2047,
    });
  });

  it("refuses an empty distribution", () => {
    expect(() => nearestRankQuantiles([])).to.throw(RangeError, "quantiles of an empty distribution");
  });
});
