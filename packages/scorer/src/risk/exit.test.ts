import { expect } from "chai";
import fc from "fast-check";
import { share } from "./arbitraries.test-util";
import { readExit } from "./exit";

describe("could you get out", () => {
  it('"A quarter free or more reads as no risk from this component"', () => {
    for (const free of [0.25, 0.26, 0.5, 1]) expect(readExit(free)).to.equal(0);
  });

  it('"nothing free reads as the worst"', () => {
    expect(readExit(0)).to.equal(1);
  });

  it("falls linearly in between: 10 % free reads 0.6", () => {
    expect(readExit(0.1)).to.be.closeTo(0.6, 1e-12);
  });

  it('"Null where the venue does not say, which is not the same as none"', () => {
    expect(readExit(null)).to.equal(null);
    expect(readExit(0)).to.not.equal(readExit(null));
  });

  it("every reading is in [0, 1]", () => {
    fc.assert(
      fc.property(share, (free) => {
        expect(readExit(free)).to.be.within(0, 1);
      }),
    );
  });
});
