import { expect } from "chai";
import { createHash } from "node:crypto";
import { canonicalJson, seal, UnsealableRecordError } from "./seal";

describe("seal", () => {
  it("hashes the RFC 8785 canonical form, so key order does not matter", () => {
    const a = seal({ b: 1, a: [true, null, "x"] });
    const b = seal({ a: [true, null, "x"], b: 1 });
    expect(a).to.equal(b);
    const expected = createHash("sha256").update('{"a":[true,null,"x"],"b":1}').digest("hex");
    expect(a).to.equal(`0x${expected}`);
  });

  it("writes numbers as RFC 8785 does (ECMAScript shortest form)", () => {
    expect(canonicalJson({ n: 1e21, m: 0.000001, k: -0 })).to.equal('{"k":0,"m":0.000001,"n":1e+21}');
  });

  for (const [label, record] of [
    ["NaN", { x: NaN }],
    ["Infinity", { x: [1, Infinity] }],
    ["undefined", { x: undefined }],
    ["a BigInt", { x: 1n }],
    ["a lone surrogate", { x: "\uD800" }],
    ["a Date", { x: new Date(0) }],
  ] as const) {
    it(`refuses ${label} with a typed error naming the field`, () => {
      expect(() => seal(record)).to.throw(UnsealableRecordError, /\$\.x/);
    });
  }
});
