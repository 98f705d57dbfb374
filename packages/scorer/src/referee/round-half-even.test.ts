import { expect } from "chai";
import fc from "fast-check";
import { roundHalfEven } from "./round-half-even";

describe("roundHalfEven", () => {
  it("sends ties to the even neighbour, in both signs", () => {
    const cases: [number, number][] = [
      [0.5, 0],
      [1.5, 2],
      [2.5, 2],
      [-0.5, 0],
      [-1.5, -2],
      [-2.5, -2],
      [2.4999999, 2],
      [-2.5000001, -3],
      [2 ** 53 + 2, 2 ** 53 + 2],
    ];
    for (const [x, expected] of cases) expect(roundHalfEven(x), String(x)).to.equal(expected);
  });

  it("never returns −0", () => {
    expect(Object.is(roundHalfEven(-0.2), 0)).to.equal(true);
    expect(Object.is(roundHalfEven(-0), 0)).to.equal(true);
  });

  it("is odd-symmetric and within ½ of its argument", () => {
    fc.assert(
      fc.property(fc.double({ min: -1e15, max: 1e15, noNaN: true }), (x) => {
        const r = roundHalfEven(x);
        expect(Number.isInteger(r)).to.equal(true);
        expect(Math.abs(r - x)).to.be.at.most(0.5);
        expect(roundHalfEven(-x)).to.equal(-r + 0);
      }),
    );
  });
});
