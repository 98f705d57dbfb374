import { expect } from "chai";
import { InvalidInputError } from "../errors";
import {
  isPlainObject,
  requireArray,
  requireArrayOrNull,
  requireExactKeys,
  requireNumber,
  requireNumberOrNull,
  requireObject,
  requireString,
} from "./checks";

/** The whole message a check throws, so a changed word or range fails (not only a prefix). */
function refusal(check: () => unknown): string {
  try {
    check();
  } catch (error) {
    expect(error).to.be.instanceOf(InvalidInputError);
    return (error as InvalidInputError).shortMessage;
  }
  throw new Error("expected the value to be refused");
}

describe("risk input checks", () => {
  it("a plain object is neither null, nor an array, nor a primitive", () => {
    expect([{}, { a: 1 }].map(isPlainObject)).to.deep.equal([true, true]);
    expect([null, [], "x", 3, undefined].map(isPlainObject)).to.deep.equal([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(refusal(() => requireObject([], "p"))).to.equal("p: must be an object");
  });

  it("exact keys: an unknown key is named with the expected list, then a missing one", () => {
    const keys = ["at", "index"];
    expect(refusal(() => requireExactKeys({ at: 1, index: 1, idx: 2 }, keys, "p"))).to.equal(
      "p.idx: is not a known field (expected at, index)",
    );
    expect(refusal(() => requireExactKeys({ at: 1 }, keys, "p"))).to.equal(
      "p.index: is required (null where unknown)",
    );
    expect(() => requireExactKeys({ at: 1, index: null }, keys, "p")).not.to.throw();
  });

  it("a string must be a non-empty string, not any value with a length", () => {
    expect(requireString("x", "p")).to.equal("x");
    for (const value of ["", ["x"], 5, null]) {
      expect(refusal(() => requireString(value, "p"))).to.equal("p: must be a non-empty string");
    }
  });

  it("numbers: each range is enforced at its bound and described in the message", () => {
    expect(requireNumber(0, "p", { min: 0 })).to.equal(0);
    expect(requireNumber(1, "p", { min: 0, max: 1 })).to.equal(1);
    expect(requireNumber(-5, "p")).to.equal(-5);
    expect(requireNumber(1e-9, "p", { min: 0, above: true })).to.equal(1e-9);
    expect(refusal(() => requireNumber(0, "p", { min: 0, above: true }))).to.equal("p: must be a number > 0");
    expect(refusal(() => requireNumber(-1e-9, "p", { min: 0 }))).to.equal("p: must be a number ≥ 0");
    expect(refusal(() => requireNumber(1.000001, "p", { min: 0, max: 1 }))).to.equal(
      "p: must be a number in [0, 1]",
    );
    expect(refusal(() => requireNumber(-0.5, "p", { min: 0, max: 1 }))).to.equal(
      "p: must be a number in [0, 1]",
    );
    // A bound only above: the message names it, not "a finite number" (5 is finite).
    expect(refusal(() => requireNumber(5, "p", { max: 1 }))).to.equal("p: must be a number ≤ 1");
    expect(requireNumber(-5, "p", { max: 1 })).to.equal(-5);
    for (const value of [NaN, Infinity, -Infinity, "1", null]) {
      expect(refusal(() => requireNumber(value, "p"))).to.equal("p: must be a finite number");
    }
  });

  it("a number or null: null passes, anything else out of range is refused with `or null`", () => {
    expect(requireNumberOrNull(null, "p", { min: 0 })).to.equal(null);
    expect(requireNumberOrNull(0.5, "p", { min: 0, max: 1 })).to.equal(0.5);
    expect(refusal(() => requireNumberOrNull(2, "p", { min: 0, max: 1 }))).to.equal(
      "p: must be a number in [0, 1] or null",
    );
    expect(refusal(() => requireNumberOrNull(undefined, "p"))).to.equal("p: must be a finite number or null");
  });

  it("arrays, with and without null", () => {
    expect(requireArray([1], "p")).to.deep.equal([1]);
    expect(refusal(() => requireArray(null, "p"))).to.equal("p: must be an array");
    expect(requireArrayOrNull(null, "p")).to.equal(null);
    expect(requireArrayOrNull([], "p")).to.deep.equal([]);
    expect(refusal(() => requireArrayOrNull({}, "p"))).to.equal("p: must be an array or null");
  });
});
