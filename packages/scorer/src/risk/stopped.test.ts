import { expect } from "chai";
import fc from "fast-check";
import { readStopped } from "./stopped";

describe("stopped operating", () => {
  it("reads 1 − days traded / days observed", () => {
    expect(readStopped(365, 365)).to.equal(0);
    expect(readStopped(73, 365)).to.be.closeTo(0.8, 1e-12);
  });

  it('"A vault whose operator switched the bot off has a flat return and no risk showing anywhere else": a bot switched off reads 1', () => {
    expect(readStopped(0, 120)).to.equal(1);
  });

  it("is unknown when either count is unknown or nothing was observed", () => {
    expect(readStopped(null, 30)).to.equal(null);
    expect(readStopped(3, null)).to.equal(null);
    expect(readStopped(0, 0)).to.equal(null);
  });

  it("every reading is in [0, 1]", () => {
    fc.assert(
      fc.property(fc.nat(1000), fc.nat(1000), (a, b) => {
        expect(readStopped(Math.min(a, b), Math.max(a, b) || null)).to.satisfy(
          (r: number | null) => r === null || (r >= 0 && r <= 1),
        );
      }),
    );
  });
});
