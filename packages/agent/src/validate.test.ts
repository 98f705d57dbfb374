import { expect } from "chai";
import { Direction } from "./commitment";
import { BadDirectionError, ConfidenceOutOfRangeError } from "./errors";
import { formatFixed18 } from "./reads";
import { requireConfidence, requireDirection } from "./validate";

describe("argument checks that need no chain", () => {
  it("confidence: integers 5000–10000 only", () => {
    expect([requireConfidence(5000), requireConfidence("10000"), requireConfidence(" 7500 ")]).to.deep.equal([
      5000, 10000, 7500,
    ]);
    for (const bad of [4999, 10_001, "70%", "7e3", "", 7000.5, -1]) {
      expect(() => requireConfidence(bad), String(bad)).to.throw(
        ConfidenceOutOfRangeError,
        /from 5000 \(a coin flip\) to 10000/,
      );
    }
  });

  it("direction: up or down, never None", () => {
    expect([requireDirection("up"), requireDirection(Direction.Down)]).to.deep.equal([
      Direction.Up,
      Direction.Down,
    ]);
    expect(() => requireDirection("none")).to.throw(BadDirectionError, /say up or down/);
    expect(() => requireDirection(Direction.None)).to.throw(BadDirectionError);
  });

  it("formatFixed18 prints 18-decimal values for people (scores, prices)", () => {
    expect(formatFixed18(5n * 10n ** 17n)).to.equal("0.5000");
    expect(formatFixed18(9_333_333_333_333_333_333n, 2)).to.equal("9.33");
    expect(formatFixed18(-(10n ** 18n), 0)).to.equal("-1");
  });
});
