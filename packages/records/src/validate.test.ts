import { InvalidInputError } from "@augur/scorer";
import { expect } from "chai";
import { normalizeMessage } from "./validate";

const ASSET = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
const ASSET_CHECKSUMMED = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const decision = (): Record<string, unknown> => ({
  agentId: "alpha",
  seasonId: "s1",
  decidedAt: 1_800_000_100,
  asset: ASSET,
  action: "buy",
  source: "decider",
  confidenceBps: 6500,
  note: "breakout",
});
const snapshot = (): Record<string, unknown> => ({
  agentId: "alpha",
  seasonId: "s1",
  takenAt: 1_800_000_000,
  nav: "1000000",
  flow: "-5",
  investedBps: 2500,
});
const UINT256_MAX = (2n ** 256n - 1n).toString();
const INT256_MIN = (-(2n ** 255n)).toString();
const INT256_MAX = (2n ** 255n - 1n).toString();

function refusal(type: "Decision" | "DecisionV2" | "Snapshot", message: unknown): string {
  try {
    normalizeMessage(type, message);
  } catch (error) {
    expect(error).to.be.instanceOf(InvalidInputError);
    return (error as InvalidInputError).shortMessage;
  }
  return expect.fail("expected a refusal");
}

const uint64 = "must be an integer from 0 to 9007199254740991";
const uint256 = "must be a decimal string of a uint256 (no sign, no leading zeros)";
const int256 = "must be a decimal string of an int256 (no leading zeros)";
const address = "must be an address (0x + 40 hex digits)";

describe("@augur/records: normalizeMessage field by field", () => {
  const refused: [string, "Decision" | "Snapshot", Record<string, unknown>, string][] = [
    ["an id that is a number", "Decision", { agentId: 7 }, "message.agentId: must be a string"],
    [
      "an action outside the list",
      "Decision",
      { action: "short" },
      "message.action: must be one of buy, sell, hold, exit",
    ],
    [
      "a note of 281 characters",
      "Decision",
      { note: "n".repeat(281) },
      "message.note: must be at most 280 characters",
    ],
    [
      "an id of 65 characters",
      "Decision",
      { agentId: "a".repeat(65) },
      "message.agentId: must be at most 64 characters",
    ],
    ["an id off the pattern", "Decision", { agentId: "Alpha Beta" }, "message.agentId: must match "],
    [
      "an address too short",
      "Decision",
      { asset: "0x5fbdb2315678afecb367f032d93f642f64180aa" },
      `message.asset: ${address}`,
    ],
    ["an address that is a number", "Decision", { asset: 5 }, `message.asset: ${address}`],
    [
      "a mixed-case address with a bad checksum",
      "Decision",
      { asset: ASSET_CHECKSUMMED.replace("F", "f") },
      "message.asset: has a bad EIP-55 checksum",
    ],
    ["a negative time", "Decision", { decidedAt: -1 }, `message.decidedAt: ${uint64}`],
    ["a fractional time", "Decision", { decidedAt: 1.5 }, `message.decidedAt: ${uint64}`],
    ["a time as text", "Decision", { decidedAt: "5" }, `message.decidedAt: ${uint64}`],
    ["a time past 2^53 − 1", "Decision", { decidedAt: 2 ** 53 }, `message.decidedAt: ${uint64}`],
    [
      "basis points above 10,000",
      "Decision",
      { confidenceBps: 10_001 },
      "message.confidenceBps: must be an integer from 0 to 10000",
    ],
    ["a uint256 with a sign", "Snapshot", { nav: "-1" }, `message.nav: ${uint256}`],
    ["a uint256 with a leading zero", "Snapshot", { nav: "01" }, `message.nav: ${uint256}`],
    ["a uint256 as a number", "Snapshot", { nav: 5 }, `message.nav: ${uint256}`],
    ["a uint256 of 2^256", "Snapshot", { nav: (2n ** 256n).toString() }, `message.nav: ${uint256}`],
    ["an int256 of −0", "Snapshot", { flow: "-0" }, `message.flow: ${int256}`],
    ["an int256 as a number", "Snapshot", { flow: -5 }, `message.flow: ${int256}`],
    ["an int256 of 2^255", "Snapshot", { flow: (2n ** 255n).toString() }, `message.flow: ${int256}`],
    [
      "an int256 below −2^255",
      "Snapshot",
      { flow: (-(2n ** 255n) - 1n).toString() },
      `message.flow: ${int256}`,
    ],
  ];
  for (const [label, type, change, message] of refused) {
    it(`refuses ${label}, naming the field`, () => {
      const base = type === "Decision" ? decision() : snapshot();
      expect(refusal(type, { ...base, ...change })).to.satisfy((m: string) => m.startsWith(message));
    });
  }

  it("refuses a message that is not an object, a missing field and an extra one", () => {
    for (const message of [null, [], "x", 5]) {
      expect(refusal("Decision", message), String(message)).to.equal("message: must be an object");
    }
    const missing = decision();
    delete missing.note;
    expect(refusal("Decision", missing)).to.equal("message.note: is required");
    expect(refusal("Decision", { ...decision(), txHash: `0x${"ab".repeat(32)}` })).to.equal(
      "message.txHash: is not a Decision field",
    );
    // A regex test reads an array as its text: the type check comes first.
    expect(refusal("Decision", { ...decision(), asset: [ASSET] })).to.equal(`message.asset: ${address}`);
    expect(refusal("DecisionV2", { ...decision(), txHash: [`0x${"ab".repeat(32)}`] })).to.equal(
      "message.txHash: must be 0x + 64 hex digits",
    );
  });

  it("accepts every edge and returns the normal form (addresses lowercase)", () => {
    expect(
      normalizeMessage("Decision", {
        ...decision(),
        asset: ASSET_CHECKSUMMED,
        decidedAt: Number.MAX_SAFE_INTEGER,
        confidenceBps: 10_000,
        note: "😀".repeat(280), // 280 characters, 560 UTF-16 units
        agentId: "a".repeat(64),
      }),
    ).to.deep.equal({
      ...decision(),
      decidedAt: Number.MAX_SAFE_INTEGER,
      confidenceBps: 10_000,
      note: "😀".repeat(280),
      agentId: "a".repeat(64),
    });
    expect(normalizeMessage("Decision", { ...decision(), decidedAt: 0, confidenceBps: 0 })).to.include({
      decidedAt: 0,
      confidenceBps: 0,
    });
    for (const [nav, flow] of [
      ["0", "0"],
      [UINT256_MAX, INT256_MIN],
      ["1", INT256_MAX],
    ]) {
      expect(normalizeMessage("Snapshot", { ...snapshot(), nav, flow })).to.include({ nav, flow });
    }
  });
});
