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

  it("ranks each unit at the surrogate and private-use boundaries by its code point", () => {
    // Ascending code points; in UTF-16 units U+10000 … U+10FFFF (D800–DBFF, DC00–DFFF) come before U+E000.
    const ascending = [
      "\ud7ff",
      "\ue000",
      "\ue001",
      "\uffff",
      "\u{10000}",
      "\u{103fe}",
      "\u{103ff}",
      "\u{10ffff}",
    ];
    for (let i = 0; i < ascending.length; i++) {
      for (let j = 0; j < ascending.length; j++) {
        const [a, b] = [ascending[i]!, ascending[j]!];
        expect(Math.sign(compareCodePoints(a, b)), `${i} vs ${j}`).to.equal(Math.sign(i - j));
      }
    }
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
