import { expect } from "chai";
import fc from "fast-check";
import { snapshotPointOf } from "./bodies";
import {
  SNAPSHOT_V1_USDG_DECIMALS,
  usdgDecimal,
  usdgDecimalsOf,
  usdgNumber,
  usdgNumberIsExact,
} from "./usdg";

describe("USDG amounts in each record's own decimals", () => {
  it("a signed v1 snapshot is in the protocol unit (6); a measured v2 one in its stated usdgDecimals", () => {
    expect(usdgDecimalsOf({ nav: "1" }))
      .to.equal(SNAPSHOT_V1_USDG_DECIMALS)
      .and.equal(6);
    expect(usdgDecimalsOf({ usdgDecimals: 18 })).to.equal(18);
    // The ends of [0, 77] are decimals too.
    expect(usdgDecimalsOf({ usdgDecimals: 0 })).to.equal(0);
    expect(usdgDecimalsOf({ usdgDecimals: 77 })).to.equal(77);
    for (const bad of [-1, 78, 6.5, "6", null])
      expect(() => usdgDecimalsOf({ usdgDecimals: bad })).to.throw(RangeError, "usdgDecimals");
  });

  it("reads 1,000.5 USDG alike from 6 and 18 decimals", () => {
    const v1 = snapshotPointOf({ takenAt: 1, nav: "1000500000", flow: "-2500000", investedBps: 4500 }, "s");
    const v2 = snapshotPointOf(
      {
        takenAt: 1,
        nav: "1000500000000000000000",
        flow: "-2500000000000000000",
        investedBps: 4500,
        usdgDecimals: 18,
      },
      "s",
    );
    expect(v1).to.deep.equal({ at: 1, nav: 1000.5, flow: -2.5, invested: 0.45, seal: "s" });
    expect(v2).to.deep.equal(v1);
  });

  it("the number alone stands for the decimal only for a string of up to 15 digits at up to 22 decimals", () => {
    for (const [amount, decimals] of [
      ["123", 6],
      ["-999999999999999", 22],
      ["0", 0],
    ] as const)
      expect(usdgNumberIsExact(amount, decimals), `${amount} at ${decimals}`).to.equal(true);
    for (const [amount, decimals] of [
      ["1234567890123456", 6],
      ["123", 23],
      [123, 6],
      ["1.5", 6],
    ] as const)
      expect(usdgNumberIsExact(amount, decimals), `${String(amount)} at ${decimals}`).to.equal(false);
  });

  it("reads what is not an integer string as a number divided (no exact decimal to parse)", () => {
    expect(usdgNumber("1.5", 1)).to.equal(0.15);
    expect(usdgNumber(2500000, 6)).to.equal(2.5);
    // An integer past 2^53 given as a number: divided as it stands, not handed to the exact parser.
    expect(usdgNumber(2 ** 60, 0)).to.equal(2 ** 60);
    expect(usdgNumber(undefined, 6)).to.be.NaN;
  });

  it("property: the number is the exact decimal rounded once, at any length and decimals", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }),
        fc.constantFrom(0, 6, 8, 18, 24),
        (units, decimals) => {
          const text = units.toString();
          expect(usdgNumber(text, decimals)).to.equal(Number(usdgDecimal(text, decimals)));
        },
      ),
    );
  });
});
