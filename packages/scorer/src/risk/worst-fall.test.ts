import { expect } from "chai";
import fc from "fast-check";
import { holderIndex, indexOf } from "./arbitraries.test-util";
import { readWorstFall, worstFall } from "./worst-fall";

describe("worst fall suffered", () => {
  it('"A 50% fall is the worst reading": a 50 % fall reads 1', () => {
    expect(readWorstFall(indexOf([1, 1.3, 0.65, 0.9]))).to.equal(1);
  });

  it("a larger fall reads 1 too: past 50 % the reading stops changing", () => {
    expect(readWorstFall(indexOf([1, 0.3]))).to.equal(1);
    expect(readWorstFall(indexOf([2, 0.02, 5]))).to.equal(1);
    expect(readWorstFall(indexOf([1, 0]))).to.equal(1);
  });

  it("reads fall / 0.50 below that: a 25 % fall reads 0.5, a 10 % fall 0.2", () => {
    expect(readWorstFall(indexOf([1, 0.75]))).to.equal(0.5);
    expect(readWorstFall(indexOf([1, 2, 1.8, 3]))).to.be.closeTo(0.2, 1e-12);
  });

  it('"Peak-to-trough on the holder-return curve": the deepest fall from a running peak, not from the start', () => {
    expect(worstFall(indexOf([1, 2, 1.5, 1.8, 1.2, 4, 3.6]))).to.be.closeTo(0.4, 1e-12);
  });

  it("a curve that only rises reads 0", () => {
    expect(readWorstFall(indexOf([1, 1.1, 1.1, 1.5]))).to.equal(0);
  });

  it("is unknown (null, not 0) without a history: no curve, or a single point", () => {
    expect(readWorstFall(null)).to.equal(null);
    expect(readWorstFall(indexOf([1]))).to.equal(null);
  });

  it("does not depend on the level of the index, only its shape", () => {
    fc.assert(
      fc.property(holderIndex, fc.double({ min: 1e-3, max: 1e3, noNaN: true }), (points, k) => {
        const scaled = points.map((p) => ({ ...p, index: p.index * k }));
        expect(readWorstFall(scaled)).to.be.closeTo(readWorstFall(points)!, 1e-9);
      }),
    );
  });

  it("every reading is in [0, 1]", () => {
    fc.assert(
      fc.property(holderIndex, (points) => {
        const reading = readWorstFall(points)!;
        expect(reading).to.be.within(0, 1);
      }),
    );
  });
});
