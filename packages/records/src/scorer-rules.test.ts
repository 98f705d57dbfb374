import { InvalidInputError } from "@augur/scorer";
import { expect } from "chai";
import { ZERO_HASH, type RecordTypeName } from "./fields";
import { checkScorable, DECIDER_OF_SOURCE } from "./scorer-rules";
import { normalizeMessage, type NormalizedMessage } from "./validate";

const ASSET = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
const TX = `0x${"ab".repeat(32)}`;
const head = { agentId: "alpha", seasonId: "s1" };
const valid: Record<Exclude<RecordTypeName, "Registration" | "RegistrationV2">, Record<string, unknown>> = {
  Snapshot: { ...head, takenAt: 1_800_000_000, nav: "1000000", flow: "-5", investedBps: 10_000 },
  Decision: { ...head, decidedAt: 1_800_000_100, asset: ASSET, action: "buy", source: "decider" },
  DecisionV2: { ...head, decidedAt: 1_800_000_100, asset: ASSET, action: "sell", source: "decider" },
  DecisionV3: { ...head, decidedAt: 1_800_000_100, asset: ASSET, action: "exit", source: "protective-exit" },
  Trade: {
    ...head,
    executedAt: 1_800_000_200,
    asset: ASSET,
    side: "sell",
    quantity: "1",
    price: "1",
    txHash: TX,
  },
};
const extra: Record<keyof typeof valid, Record<string, unknown>> = {
  Snapshot: {},
  Decision: { confidenceBps: 6500, note: "" },
  DecisionV2: { confidenceBps: 6500, note: "", txHash: TX },
  DecisionV3: { confidenceBps: 6500, noteHash: ZERO_HASH, txHash: ZERO_HASH },
  Trade: {},
};
const normal = (type: keyof typeof valid, change: Record<string, unknown> = {}): NormalizedMessage =>
  normalizeMessage(type, { ...valid[type], ...extra[type], ...change });

/** The refusal checkScorable gives, as "path: problem". */
function refusal(type: RecordTypeName, message: Record<string, unknown>): string {
  try {
    checkScorable(type, message as NormalizedMessage);
  } catch (error) {
    expect(error).to.be.instanceOf(InvalidInputError);
    return (error as InvalidInputError).shortMessage;
  }
  return expect.fail("expected a refusal");
}

const refused = "(augur-score/v1 refuses it)";

describe("@augur/records: a record the scorer would refuse is refused at ingestion (checkScorable)", () => {
  it("passes every valid record of each type, and asks nothing of a registration (it has no scorer row)", () => {
    for (const type of Object.keys(valid) as (keyof typeof valid)[])
      expect(checkScorable(type, normal(type))).to.equal(undefined);
    for (const source of ["decider", "protective-exit", "system-hold"])
      checkScorable("Decision", normal("Decision", { action: "hold", source }));
    checkScorable("Trade", normal("Trade", { side: "buy" }));
    // Not a row the scorer reads: even an empty message is not its business.
    checkScorable("Registration", {});
    checkScorable("RegistrationV2", {});
  });

  it("maps each decision source to the scorer's decider", () => {
    expect(DECIDER_OF_SOURCE).to.deep.equal({
      decider: "agent",
      "protective-exit": "protective_exit",
      "system-hold": "system_hold",
    });
  });

  it("names the message's field, not the scorer row's, with the scorer's own words", () => {
    expect(refusal("Snapshot", normal("Snapshot", { nav: "0" }))).to.equal(
      `message.nav: must be a positive decimal number ${refused}`,
    );
    expect(refusal("Snapshot", { ...normal("Snapshot"), investedBps: 10_001 })).to.equal(
      `message.investedBps: must be a number in [0, 1] ${refused}`,
    );
    expect(refusal("Trade", normal("Trade", { quantity: "0" }))).to.equal(
      `message.quantity: must be a positive decimal number ${refused}`,
    );
    expect(refusal("Trade", normal("Trade", { price: "0" }))).to.equal(
      `message.price: must be a positive decimal number ${refused}`,
    );
    expect(refusal("Trade", { ...normal("Trade"), side: "hold" })).to.equal(
      `message.side: must be one of "buy", "sell" ${refused}`,
    );
    expect(refusal("Decision", { ...normal("Decision"), source: "oracle" })).to.equal(
      `message.source: must be one of "agent", "protective_exit", "system_hold" ${refused}`,
    );
    expect(refusal("DecisionV3", { ...normal("DecisionV3"), asset: "" })).to.equal(
      `message.asset: must be a non-empty string ${refused}`,
    );
    expect(refusal("DecisionV2", { ...normal("DecisionV2"), action: "" })).to.equal(
      `message.action: must be a non-empty string ${refused}`,
    );
  });

  it("refuses a time the scorer cannot read as its type's time field, even beyond a Date's range", () => {
    const iso = "must be an ISO-8601 UTC time like 2026-11-30T07:00:00Z";
    // Year 10000: a Date, but not an ISO time of four-digit years.
    expect(refusal("Snapshot", normal("Snapshot", { takenAt: 253_402_300_800 }))).to.equal(
      `message.takenAt: ${iso} ${refused}`,
    );
    expect(checkScorable("Snapshot", normal("Snapshot", { takenAt: 253_402_300_799 }))).to.equal(undefined);
    // Beyond ±8.64 × 10^15 ms no Date exists: still a refusal of the field, not a RangeError.
    expect(refusal("Decision", normal("Decision", { decidedAt: 8_640_000_000_001 }))).to.equal(
      `message.decidedAt: ${iso} ${refused}`,
    );
    expect(refusal("Trade", normal("Trade", { executedAt: Number.MAX_SAFE_INTEGER }))).to.equal(
      `message.executedAt: ${iso} ${refused}`,
    );
  });

  it("lets an error that is not a refusal through unchanged", () => {
    expect(() => checkScorable("Snapshot", { ...normal("Snapshot"), nav: "1.5" }))
      .to.throw(TypeError, "invalid BigNumberish string")
      .and.not.be.instanceOf(InvalidInputError);
  });
});
