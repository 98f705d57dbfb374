import { expect } from "chai";
import fc from "fast-check";
import { readLiquidation } from "./liquidation";

describe("distance to liquidation", () => {
  it('"A cushion of 25% or more reads as no risk from this component"', () => {
    for (const cushion of [0.25, 0.3, 0.5, 1, 4]) expect(readLiquidation(cushion)).to.equal(0);
  });

  it('"nothing left reads as the worst"', () => {
    expect(readLiquidation(0)).to.equal(1);
  });

  it("falls linearly in between: a 12.5 % cushion reads 0.5, 20 % reads 0.2", () => {
    expect(readLiquidation(0.125)).to.equal(0.5);
    expect(readLiquidation(0.2)).to.be.closeTo(0.2, 1e-12);
  });

  it("an unleveraged book (cushion 1: the price can go to zero) reads 0", () => {
    expect(readLiquidation(1)).to.equal(0);
  });

  it("unknown reads null, not 0", () => {
    expect(readLiquidation(null)).to.equal(null);
  });

  it("every reading is in [0, 1] and never rises as the cushion grows", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 10, noNaN: true }),
        fc.double({ min: 0, max: 10, noNaN: true }),
        (a, b) => {
          const [low, high] = a <= b ? [a, b] : [b, a];
          expect(readLiquidation(low)).to.be.within(0, 1);
          expect(readLiquidation(high)!).to.be.at.most(readLiquidation(low)!);
        },
      ),
    );
  });
});
