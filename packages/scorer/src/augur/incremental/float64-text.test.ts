import { expect } from "chai";
import fc from "fast-check";
import { float64Text, parseFloat64Text } from "./float64-text";

describe("float64Text: doubles as the base64 of their bits", () => {
  it("writes each double's 8 bytes little-endian (1, −0, 0.1)", () => {
    expect(float64Text([1, -0, 0.1])).to.equal("AAAAAAAA8D8AAAAAAAAAgJqZmZmZmbk/");
    expect(float64Text([])).to.equal("");
  });

  it("reads back every double bit for bit (−0, NaN, ±Infinity, subnormals included)", () => {
    fc.assert(
      fc.property(fc.array(fc.double(), { maxLength: 12 }), (values) => {
        const back = parseFloat64Text(float64Text(values));
        const same = back.length === values.length && back.every((v, i) => Object.is(v, values[i]));
        expect(same, `${values.join(", ")} read back as ${back.join(", ")}`).to.equal(true);
      }),
    );
  });

  it("refuses a text that is not whole 8-byte values in base64", () => {
    expect(() => parseFloat64Text("AAAAAAAA8D")).to.throw(RangeError, /not the base64 of float64 values/);
    expect(() => parseFloat64Text("AAAAAAAA8D8=!")).to.throw(RangeError);
    expect(() => parseFloat64Text("AAAA")).to.throw(RangeError);
  });
});
