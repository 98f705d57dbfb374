import { expect } from "chai";
import { TypedDataEncoder } from "ethers";
import fc from "fast-check";
import {
  allTypedDataTypes,
  augurDomain,
  typedDataDigest,
  typedDataDigestBytes,
  typedDataTypes,
} from "./eip712";
import {
  isRegistration,
  LIFECYCLE_TYPE_NAMES,
  RECORD_TYPE_NAMES,
  SIGNED_FIELDS,
  type FieldSpec,
} from "./fields";

describe("@augur/records: the EIP-712 types and domain every record is signed under", () => {
  it("publishes every record and lifecycle type, each as its own fields in order", () => {
    const all = allTypedDataTypes();
    expect(Object.keys(all)).to.deep.equal([...RECORD_TYPE_NAMES, ...LIFECYCLE_TYPE_NAMES]);
    for (const type of [...RECORD_TYPE_NAMES, ...LIFECYCLE_TYPE_NAMES]) {
      expect(all[type]).to.deep.equal(typedDataTypes(type)[type]);
      expect(all[type]!.map((f) => f.name)).to.deep.equal(SIGNED_FIELDS[type].map((f) => f.name));
    }
    expect(all.Retirement).to.deep.equal([
      { name: "agentId", type: "string" },
      { name: "seasonId", type: "string" },
      { name: "retiredAt", type: "uint64" },
    ]);
    expect(augurDomain(4663)).to.deep.equal({ name: "Augur ledger", version: "1", chainId: 4663 });
  });

  it("counts both registration versions, and nothing else, as a registration", () => {
    expect(RECORD_TYPE_NAMES.filter(isRegistration)).to.deep.equal(["Registration", "RegistrationV2"]);
  });
});

/** A random value of one field's EIP-712 type, in the normal form `normalizeMessage` gives. */
function arbitraryField(spec: FieldSpec): fc.Arbitrary<string | number> {
  const hex = (bytes: number) =>
    fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => `0x${Buffer.from(b).toString("hex")}`);
  switch (spec.type) {
    case "string":
      return spec.enum ? fc.constantFrom(...spec.enum) : fc.string({ unit: "grapheme", maxLength: 80 });
    case "address":
      return hex(20);
    case "bytes32":
      return hex(32);
    case "uint16":
      return fc.integer({ min: 0, max: spec.maximum ?? 0xffff });
    case "uint64":
      return fc.maxSafeNat();
    case "uint256":
      return fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }).map(String);
    case "int256":
      return fc.bigInt({ min: -(2n ** 255n), max: 2n ** 255n - 1n }).map(String);
  }
}

describe("@augur/records: the EIP-712 digest is ethers' TypedDataEncoder.hash", () => {
  it("equals TypedDataEncoder.hash for random records of every signed type and chain id", () => {
    const types = [...RECORD_TYPE_NAMES, ...LIFECYCLE_TYPE_NAMES];
    const record = fc.constantFrom(...types).chain((type) =>
      fc.record({
        type: fc.constant(type),
        chainId: fc.oneof(fc.constantFrom(1, 31337, 4663), fc.integer({ min: 1, max: 2 ** 32 })),
        message: fc.record(Object.fromEntries(SIGNED_FIELDS[type].map((f) => [f.name, arbitraryField(f)]))),
      }),
    );
    fc.assert(
      fc.property(record, ({ type, chainId, message }) => {
        const expected = TypedDataEncoder.hash(augurDomain(chainId), typedDataTypes(type), message);
        expect(typedDataDigest(chainId, type, message)).to.equal(expected);
        expect(Buffer.from(typedDataDigestBytes(chainId, type, message)).toString("hex")).to.equal(
          expected.slice(2),
        );
      }),
    );
  });

  it("refuses a value its field cannot hold, as ethers does", () => {
    const snapshot = { agentId: "ada", seasonId: "s1", takenAt: 1, nav: "1", flow: "0", investedBps: 0 };
    for (const bad of [
      { nav: "-1" },
      { nav: (2n ** 256n).toString() },
      { flow: (2n ** 255n).toString() },
      { investedBps: 65536 },
      { takenAt: 1.5 },
      { agentId: 7 },
    ]) {
      const message = { ...snapshot, ...bad };
      expect(() => TypedDataEncoder.hash(augurDomain(1), typedDataTypes("Snapshot"), message)).to.throw();
      expect(() => typedDataDigest(1, "Snapshot", message)).to.throw();
    }
    const decision = { asset: "0x12", txHash: `0x${"00".repeat(31)}` };
    expect(() => typedDataDigest(1, "DecisionV2", decision)).to.throw();
  });
});
