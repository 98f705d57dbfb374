import { expect } from "chai";
import { InvalidInputError } from "@augur/scorer";
import { TypedDataEncoder, Wallet } from "ethers";
import { augurDomain, typedDataTypes } from "./eip712";
import { RECORD_FIELDS, RECORD_KIND, TIME_FIELD } from "./fields";
import { checkScorable } from "./scorer-rules";
import { sealedRecord, sealRecord } from "./sealed";
import { recoverSigner } from "./signature";
import { normalizeMessage } from "./validate";

const CHAIN = 31337;
const agent = new Wallet(`0x${"11".repeat(32)}`);
const decision = {
  agentId: "alpha",
  seasonId: "s1",
  decidedAt: 1_800_000_100,
  asset: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
  action: "buy",
  source: "decider",
  confidenceBps: 6500,
  note: "breakout",
};
const TX = `0x${"Ab".repeat(32)}`;

function refusal(type: "Decision" | "DecisionV2", message: object): InvalidInputError {
  try {
    normalizeMessage(type, message);
  } catch (error) {
    expect(error).to.be.instanceOf(InvalidInputError);
    return error as InvalidInputError;
  }
  return expect.fail("expected a refusal");
}

describe("@augur/records: a decision that names its trade (DecisionV2)", () => {
  it("is the Decision's fields plus txHash, under its own EIP-712 type; a Decision's hash is unchanged", () => {
    expect(RECORD_FIELDS.DecisionV2.map((f) => f.name)).to.deep.equal([
      ...RECORD_FIELDS.Decision.map((f) => f.name),
      "txHash",
    ]);
    expect(RECORD_FIELDS.DecisionV2.at(-1)!.type).to.equal("bytes32");
    expect(TypedDataEncoder.from(typedDataTypes("Decision")).encodeType("Decision")).to.equal(
      "Decision(string agentId,string seasonId,uint64 decidedAt,address asset,string action,string source,uint16 confidenceBps,string note)",
    );
    expect(TypedDataEncoder.from(typedDataTypes("DecisionV2")).encodeType("DecisionV2")).to.equal(
      "DecisionV2(string agentId,string seasonId,uint64 decidedAt,address asset,string action,string source,uint16 confidenceBps,string note,bytes32 txHash)",
    );
    expect([RECORD_KIND.Decision, RECORD_KIND.DecisionV2]).to.deep.equal(["decision", "decision"]);
    expect(TIME_FIELD.DecisionV2).to.equal("decidedAt");
  });

  it("normalizes (hash lowercase), passes the scorer's decision rule, recovers to its signer, seals apart from v1", async () => {
    const message = { ...decision, txHash: TX };
    const normal = normalizeMessage("DecisionV2", message);
    expect(normal.txHash).to.equal(TX.toLowerCase());
    checkScorable("DecisionV2", normal);
    const signature = await agent.signTypedData(augurDomain(CHAIN), typedDataTypes("DecisionV2"), message);
    expect(recoverSigner("signature", "DecisionV2", CHAIN, normal, signature)).to.equal(
      agent.address.toLowerCase(),
    );
    // A v1 signature does not pass for v2 (the type is part of the digest).
    const v1 = await agent.signTypedData(augurDomain(CHAIN), typedDataTypes("Decision"), decision);
    expect(recoverSigner("signature", "DecisionV2", CHAIN, normal, v1)).to.not.equal(
      agent.address.toLowerCase(),
    );
    const sealed = sealRecord(sealedRecord("DecisionV2", CHAIN, normal));
    expect(JSON.parse(sealed.body)).to.deep.include({ type: "DecisionV2" });
    expect(sealed.seal).to.not.equal(
      sealRecord(sealedRecord("Decision", CHAIN, normalizeMessage("Decision", decision))).seal,
    );
  });

  it("refuses a malformed hash, a hash on hold or exit, and a hash on a v1 Decision, naming the field", () => {
    for (const txHash of ["0x1234", `0x${"g".repeat(64)}`, 42, `${"ab".repeat(32)}`]) {
      const e = refusal("DecisionV2", { ...decision, txHash });
      expect(e.path).to.equal("message.txHash");
      expect(e.message).to.contain("must be 0x + 64 hex digits");
    }
    for (const action of ["hold", "exit"]) {
      const e = refusal("DecisionV2", { ...decision, action, txHash: TX });
      expect(e.path).to.equal("message.txHash");
      expect(e.message).to.contain(`only a buy or sell decision carries one (action is ${action})`);
    }
    expect(normalizeMessage("DecisionV2", { ...decision, action: "sell", txHash: TX }).action).to.equal(
      "sell",
    );
    expect(refusal("Decision", { ...decision, txHash: TX }).message).to.contain("is not a Decision field");
    expect(refusal("DecisionV2", decision).path).to.equal("message.txHash");
  });
});
