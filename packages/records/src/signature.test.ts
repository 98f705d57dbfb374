import { expect } from "chai";
import fc from "fast-check";
import { computeAddress, SigningKey, verifyTypedData, Wallet } from "ethers";
import { augurDomain, typedDataDigest, typedDataTypes } from "./eip712";
import { BadSignatureError } from "./errors";
import { recoverSigner } from "./signature";
import { normalizeMessage } from "./validate";

const CHAIN = 31337;
const agent = new Wallet(`0x${"11".repeat(32)}`);
const message = { agentId: "ada", seasonId: "s1", takenAt: 1, nav: "1", flow: "0", investedBps: 0 };

function refusal(signature: unknown): string {
  try {
    recoverSigner("sig", "Snapshot", CHAIN, normalizeMessage("Snapshot", message), signature);
  } catch (error) {
    expect(error).to.be.instanceOf(BadSignatureError);
    return (error as BadSignatureError).message;
  }
  return expect.fail("expected a BadSignatureError");
}

describe("@augur/records: recoverSigner's refusals name the field and say why", () => {
  it("refuses what is not 0x + 130 hex digits before recovering anything, even its text wrapped in an array", async () => {
    const good = await agent.signTypedData(augurDomain(CHAIN), typedDataTypes("Snapshot"), message);
    const shape = "sig: must be a 65-byte signature (0x + 130 hex digits)";
    for (const bad of ["0x12", `${good}00`, good.slice(2), `0x${"g".repeat(130)}`, 42, null, [good]])
      expect(refusal(bad)).to.equal(shape);
    expect(recoverSigner("sig", "Snapshot", CHAIN, normalizeMessage("Snapshot", message), good)).to.equal(
      agent.address.toLowerCase(),
    );
  });

  it("refuses 65 bytes that recover to no address (r = s = 0, v = 0)", () => {
    expect(refusal(`0x${"00".repeat(65)}`)).to.equal("sig: does not recover to any address");
  });
});

/** What ethers' own `verifyTypedData` answers, the reference recoverSigner must equal. */
function ethersAnswer(message: ReturnType<typeof normalizeMessage>, signature: string): string {
  try {
    return verifyTypedData(augurDomain(CHAIN), typedDataTypes("Snapshot"), message, signature).toLowerCase();
  } catch {
    return "refused";
  }
}

function ourAnswer(message: ReturnType<typeof normalizeMessage>, signature: string): string {
  try {
    return recoverSigner("sig", "Snapshot", CHAIN, message, signature);
  } catch (error) {
    expect(error).to.be.instanceOf(BadSignatureError);
    return "refused";
  }
}

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const hex32 = (n: bigint) => n.toString(16).padStart(64, "0");

describe("@augur/records: recoverSigner accepts and recovers exactly what ethers' verifyTypedData does", () => {
  const snapshot = fc.record({
    agentId: fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/),
    seasonId: fc.constantFrom("s1", "season-2"),
    takenAt: fc.integer({ min: 1, max: 2 ** 40 }),
    nav: fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
    flow: fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }).map(String),
    investedBps: fc.integer({ min: 0, max: 10_000 }),
  });
  // Keys are not what varies the answer (making one costs more than the rest of a run): eight,
  // the largest valid one among them.
  const keys = [
    SECP256K1_N - 1n,
    1n,
    2n ** 255n,
    ...[3, 5, 7, 11, 13].map((k) => BigInt(k) ** 100n % SECP256K1_N),
  ].map((k) => ({ key: new SigningKey(`0x${hex32(k)}`), address: "" }));
  for (const k of keys) k.address = computeAddress(k.key.publicKey).toLowerCase();
  const key = fc.constantFrom(...keys);
  // What an attacker may send instead of the signature: its own bytes, a v that is not 27/28, the
  // malleated twin (n − s, the other parity), or 65 random bytes.
  const tamper = fc.oneof(
    fc.constant("none" as const),
    fc.constant("twin" as const),
    fc.integer({ min: 0, max: 255 }).map((v) => ({ v })),
    fc.uint8Array({ minLength: 65, maxLength: 65 }).map((bytes) => ({ bytes })),
    fc
      .tuple(fc.integer({ min: 0, max: 64 }), fc.integer({ min: 1, max: 255 }))
      .map(([at, xor]) => ({ at, xor })),
  );

  it("for random keys, snapshots and tampered signatures: the same address, or both refuse", () => {
    fc.assert(
      fc.property(key, snapshot, tamper, ({ key: signer, address }, raw, how) => {
        const message = normalizeMessage("Snapshot", raw);
        const signed = signer.sign(typedDataDigest(CHAIN, "Snapshot", message));
        let signature = signed.serialized;
        if (how === "twin") {
          const s = hex32(SECP256K1_N - BigInt(signed.s));
          signature = `${signed.r}${s}${signed.v === 27 ? "1c" : "1b"}`;
        } else if (how !== "none" && "v" in how)
          signature = signature.slice(0, 130) + how.v.toString(16).padStart(2, "0");
        else if (how !== "none" && "bytes" in how) signature = `0x${Buffer.from(how.bytes).toString("hex")}`;
        else if (how !== "none") {
          const bytes = Buffer.from(signature.slice(2), "hex");
          bytes[how.at] = bytes[how.at]! ^ how.xor;
          signature = `0x${bytes.toString("hex")}`;
        }
        const ours = ourAnswer(message, signature);
        expect(ours).to.equal(ethersAnswer(message, signature));
        if (how === "none") expect(ours).to.equal(address);
      }),
    );
  });
});
