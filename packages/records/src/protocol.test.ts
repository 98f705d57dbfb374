import { expect } from "chai";
import fc from "fast-check";
import { InvalidInputError, seal } from "@augur/scorer";
import { Wallet } from "ethers";
import { augurDomain, typedDataTypes } from "./eip712";
import { BadSignatureError } from "./errors";
import { sealedRecord, sealRecord } from "./sealed";
import { recoverSigner } from "./signature";
import { normalizeMessage } from "./validate";

// Fixed keys: the properties below must not depend on which key signs.
const agent = new Wallet(`0x${"11".repeat(32)}`);
const other = new Wallet(`0x${"22".repeat(32)}`);
const CHAIN = 31337;

const snapshots = fc.record({
  agentId: fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,20}$/),
  seasonId: fc.constant("s1"),
  takenAt: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  nav: fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }).map(String),
  flow: fc.bigInt({ min: -(2n ** 255n), max: 2n ** 255n - 1n }).map(String),
  investedBps: fc.integer({ min: 0, max: 10_000 }),
});

describe("@augur/records: the protocol without a store", () => {
  it("a signed Snapshot normalizes to itself and recovers to its signer", async () => {
    await fc.assert(
      fc.asyncProperty(snapshots, async (message) => {
        const normal = normalizeMessage("Snapshot", message);
        expect(normal).to.deep.equal(message);
        expect(normalizeMessage("Snapshot", normal)).to.deep.equal(normal);
        const signature = await agent.signTypedData(augurDomain(CHAIN), typedDataTypes("Snapshot"), message);
        const signer = recoverSigner("signature", "Snapshot", CHAIN, normal, signature);
        expect(signer).to.equal(agent.address.toLowerCase());
      }),
      { numRuns: 50 },
    );
  });

  it("the seal is the scorer's seal of the sealed record, whoever signs and whatever the address case", () => {
    const message = {
      agentId: "ada",
      seasonId: "s1",
      decidedAt: 1_800_000_000,
      asset: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      action: "buy",
      source: "decider",
      confidenceBps: 6500,
      note: "breakout",
    };
    const upper = normalizeMessage("Decision", message);
    const lower = normalizeMessage("Decision", { ...message, asset: message.asset.toLowerCase() });
    const sealed = sealedRecord("Decision", CHAIN, upper);
    const { seal: s, body } = sealRecord(sealed);
    expect(sealRecord(sealedRecord("Decision", CHAIN, lower)).seal).to.equal(s);
    expect(s).to.equal(seal(sealed));
    expect(JSON.parse(body)).to.deep.equal({
      format: "augur-record/v1",
      type: "Decision",
      domain: { name: "Augur ledger", version: "1", chainId: CHAIN },
      message: { ...message, asset: message.asset.toLowerCase() },
    });
    // Another chain is another record.
    expect(sealRecord(sealedRecord("Decision", 4663, upper)).seal).not.to.equal(s);
  });

  it("refuses what it cannot read: a missing or extra field, a bad checksum, a malformed signature", () => {
    const message = { agentId: "ada", seasonId: "s1", takenAt: 1, nav: "1", flow: "0", investedBps: 0 };
    const { investedBps: _dropped, ...missing } = message;
    expect(() => normalizeMessage("Snapshot", missing)).to.throw(InvalidInputError, "message.investedBps");
    expect(() => normalizeMessage("Snapshot", { ...message, extra: 1 })).to.throw(
      InvalidInputError,
      "message.extra",
    );
    expect(() => normalizeMessage("Snapshot", { ...message, nav: "01" })).to.throw(InvalidInputError);
    const badChecksum = "0x5FBDB2315678afecb367f032d93F642f64180aa3";
    const registration = {
      agentId: "ada",
      seasonId: "s1",
      creator: badChecksum,
      agentKey: agent.address,
      style: "momentum",
      registeredAt: 1,
    };
    expect(() => normalizeMessage("Registration", registration)).to.throw(InvalidInputError, "checksum");
    expect(
      normalizeMessage("Registration", { ...registration, creator: badChecksum.toLowerCase() }).creator,
    ).to.equal(badChecksum.toLowerCase());
    const normal = normalizeMessage("Snapshot", message);
    expect(() => recoverSigner("signature", "Snapshot", CHAIN, normal, "0x12")).to.throw(BadSignatureError);
  });

  it("a signature by another key recovers to that key, not to the agent", async () => {
    const message = { agentId: "ada", seasonId: "s1", takenAt: 1, nav: "1", flow: "0", investedBps: 0 };
    const signature = await other.signTypedData(augurDomain(CHAIN), typedDataTypes("Snapshot"), message);
    const signer = recoverSigner(
      "signature",
      "Snapshot",
      CHAIN,
      normalizeMessage("Snapshot", message),
      signature,
    );
    expect(signer).to.equal(other.address.toLowerCase());
    expect(signer).not.to.equal(agent.address.toLowerCase());
  });
});
