import { expect } from "chai";
import fc from "fast-check";
import { compareCodePoints } from "./code-point-order";

describe("compareCodePoints", () => {
  it("orders by code point where UTF-16 order differs: U+FF61 before U+1F600", () => {
    expect("\uff61" < "\u{1f600}").to.equal(false); // JavaScript's own order is by UTF-16 unit
    expect(compareCodePoints("\uff61", "\u{1f600}")).to.be.below(0);
    expect(compareCodePoints("TSLA/USDG", "AAPL/USDG")).to.be.above(0);
    expect(compareCodePoints("AB", "ABC")).to.be.below(0);
    expect(compareCodePoints("same", "same")).to.equal(0);
  });

  it("agrees with the byte order of the UTF-8 encodings", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), fc.string({ unit: "grapheme" }), (a, b) => {
        const bytes = Math.sign(Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8")));
        expect(Math.sign(compareCodePoints(a, b))).to.equal(bytes);
      }),
    );
  });
});
