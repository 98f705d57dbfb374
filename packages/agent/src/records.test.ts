import { expect } from "chai";
import { TypedDataEncoder, verifyTypedData, Wallet } from "ethers";
import { erasableHash, typedDataTypes, ZERO_HASH } from "@augur/records";
import {
  RECORD_TYPES,
  recordDomain,
  signRecord,
  signRecordWithTexts,
  signRegistration,
  signRetirement,
} from "./records";

const agent = new Wallet(`0x${"11".repeat(32)}`);
const creator = new Wallet(`0x${"22".repeat(32)}`);

describe("signRecord (EIP-712 records for the engine)", () => {
  it("pins each type string to the engine's field lists (docs/engine.md)", () => {
    const encoded = Object.fromEntries(
      Object.entries(RECORD_TYPES).map(([name, fields]) => [
        name,
        TypedDataEncoder.from({ [name]: [...fields] }).encodeType(name),
      ]),
    );
    expect(encoded).to.deep.equal({
      Registration:
        "Registration(string agentId,string seasonId,address creator,address agentKey,string style,uint64 registeredAt)",
      RegistrationV2:
        "RegistrationV2(string agentId,string seasonId,address creator,address agentKey,string style,uint64 registeredAt,address wallet)",
      Snapshot:
        "Snapshot(string agentId,string seasonId,uint64 takenAt,uint256 nav,int256 flow,uint16 investedBps)",
      Decision:
        "Decision(string agentId,string seasonId,uint64 decidedAt,address asset,string action,string source,uint16 confidenceBps,string note)",
      DecisionV2:
        "DecisionV2(string agentId,string seasonId,uint64 decidedAt,address asset,string action,string source,uint16 confidenceBps,string note,bytes32 txHash)",
      DecisionV3:
        "DecisionV3(string agentId,string seasonId,uint64 decidedAt,address asset,string action,string source,uint16 confidenceBps,bytes32 noteHash,bytes32 txHash)",
      Trade:
        "Trade(string agentId,string seasonId,uint64 executedAt,address asset,string side,uint256 quantity,uint256 price,bytes32 txHash)",
    });
  });

  it("signs under the domain {name: Augur ledger, version 1, chainId} and recovers to the agent", async () => {
    const message = {
      agentId: "alpha",
      seasonId: "s1",
      takenAt: 1_700_000_000,
      nav: 1_000_000_000n,
      flow: -5n,
      investedBps: 4200,
    };
    const signed = await signRecord(agent, 31337, "Snapshot", message);
    expect(signed.message).to.deep.equal({ ...message, nav: "1000000000", flow: "-5" });
    const types = { Snapshot: [...RECORD_TYPES.Snapshot] };
    expect(verifyTypedData(recordDomain(31337), types, signed.message, signed.signature)).to.equal(
      agent.address,
    );
    // Another chain id is another domain: the same signature does not carry over.
    expect(verifyTypedData(recordDomain(4663), types, signed.message, signed.signature)).to.not.equal(
      agent.address,
    );
  });

  it("a registration carries the agent's and the creator's signature of the same data", async () => {
    const message = {
      agentId: "alpha",
      seasonId: "s1",
      creator: creator.address,
      agentKey: agent.address,
      style: "momentum",
      registeredAt: 1_700_000_000,
    };
    const signed = await signRegistration(agent, creator, 31337, message);
    const types = { Registration: [...RECORD_TYPES.Registration] };
    expect(verifyTypedData(recordDomain(31337), types, message, signed.signature)).to.equal(agent.address);
    expect(verifyTypedData(recordDomain(31337), types, message, signed.creatorSignature!)).to.equal(
      creator.address,
    );
  });

  it("a retirement is signed by the agent's key under the Retirement type the engine publishes", async () => {
    const message = { agentId: "alpha", seasonId: "s1", retiredAt: 1_700_000_000 };
    const signed = await signRetirement(agent, 31337, message);
    expect(signed.message).to.deep.equal(message);
    const types = typedDataTypes("Retirement");
    expect(verifyTypedData(recordDomain(31337), types, message, signed.signature)).to.equal(agent.address);
  });
});

describe("signRecordWithTexts (free text kept out of the sealed body)", () => {
  const decision = {
    agentId: "alpha",
    seasonId: "s1",
    decidedAt: 1_700_000_000,
    asset: `0x${"ab".repeat(20)}`,
    action: "hold",
    source: "decider",
    confidenceBps: 6000,
    txHash: ZERO_HASH,
  };

  it("signs noteHash = sha256(salt ‖ note) under a fresh salt and hands the text back apart", async () => {
    const a = await signRecordWithTexts(agent, 31337, "DecisionV3", decision, { note: "Ada thinks so" });
    const b = await signRecordWithTexts(agent, 31337, "DecisionV3", decision, { note: "Ada thinks so" });
    expect(a.texts).to.have.length(1);
    const [t] = a.texts;
    expect(t!.field).to.equal("note");
    expect(t!.text).to.equal("Ada thinks so");
    expect(a.record.message.noteHash).to.equal(erasableHash(t!.salt, "Ada thinks so"));
    expect(JSON.stringify(a.record.message)).to.not.include("Ada");
    expect(b.texts[0]!.salt).to.not.equal(t!.salt); // a fresh salt per field: no guessing by hashing
    const types = { DecisionV3: [...RECORD_TYPES.DecisionV3] };
    expect(verifyTypedData(recordDomain(31337), types, a.record.message, a.record.signature)).to.equal(
      agent.address,
    );
  });

  it("seals the zero hash and posts nothing without a note; refuses a field the type does not have", async () => {
    const none = await signRecordWithTexts(agent, 31337, "DecisionV3", decision, {});
    expect(none.record.message.noteHash).to.equal(ZERO_HASH);
    expect(none.texts).to.deep.equal([]);
    let refused: unknown;
    try {
      await signRecordWithTexts(agent, 31337, "DecisionV3", decision, { reason: "x" });
    } catch (error) {
      refused = error;
    }
    expect(String(refused)).to.include("DecisionV3 has no erasable field 'reason'");
  });
});
