import { expect } from "chai";
import fc from "fast-check";
import { share } from "./arbitraries.test-util";
import { readLargestDepositor } from "./largest-depositor";

describe("largest depositor", () => {
  it('"Below a quarter it stops deciding": up to 25 % reads 0', () => {
    for (const s of [0, 0.1, 0.249, 0.25]) expect(readLargestDepositor(s)).to.equal(0);
  });

  it('"at everything, the vault is one person\'s mind": 100 % reads 1', () => {
    expect(readLargestDepositor(1)).to.equal(1);
  });

  it("rises linearly from a quarter to everything: 62.5 % reads 0.5", () => {
    expect(readLargestDepositor(0.625)).to.equal(0.5);
    expect(readLargestDepositor(0.4)).to.be.closeTo(0.2, 1e-12);
  });

  it("unknown reads null, not 0", () => {
    expect(readLargestDepositor(null)).to.equal(null);
  });

  it("every reading is in [0, 1] and never falls as the share grows", () => {
    fc.assert(
      fc.property(share, share, (a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(readLargestDepositor(high)).to.be.within(0, 1);
        expect(readLargestDepositor(high)!).to.be.at.least(readLargestDepositor(low)!);
      }),
    );
  });
});
