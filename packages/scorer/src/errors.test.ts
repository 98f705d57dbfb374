import { expect } from "chai";
import { AugurError, InvalidInputError } from "./errors";
import { isHex32 } from "./hex";

describe("errors and hex", () => {
  it("every error carries its name, code, message and details", () => {
    const base = new AugurError("SOME_CODE", "went wrong", { x: 1 });
    expect([base.name, base.code, base.message, base.shortMessage]).to.deep.equal([
      "AugurError",
      "SOME_CODE",
      "went wrong",
      "went wrong",
    ]);
    expect(base.details).to.deep.equal({ x: 1 });
    const input = new InvalidInputError("rows[3].at", "is not a time", { value: "x" });
    expect([input.name, input.code, input.message, input.path]).to.deep.equal([
      "InvalidInputError",
      "INVALID_INPUT",
      "rows[3].at: is not a time",
      "rows[3].at",
    ]);
    expect(input.details).to.deep.equal({ path: "rows[3].at", value: "x" });
    expect(input).to.be.instanceOf(AugurError);
  });

  it("isHex32 accepts exactly 0x and 64 lowercase hex digits, as a string", () => {
    const hex = `0x${"ab".repeat(32)}`;
    expect(isHex32(hex)).to.equal(true);
    for (const bad of [[hex], `x${hex}`, `${hex}0`, hex.toUpperCase(), `0x${"ab".repeat(31)}`, 7]) {
      expect(isHex32(bad), String(bad)).to.equal(false);
    }
  });
});
