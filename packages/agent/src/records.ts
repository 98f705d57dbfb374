import type { Signer, TypedDataField } from "ethers";

/*
 * The EIP-712 domain and record types the engine verifies. The one definition lives in the engine
 * (packages/engine/src/records/eip712.ts and fields.ts, branch h/engine, published at
 * GET /api/v1/eip712). It is not on main yet, so this is a copy of its field lists, kept in the
 * same order; once the engine is merged this file should import them from there (or from
 * @augur/scorer if the definition moves) instead. records.test.ts pins every type string.
 */
export const EIP712_NAME = "Augur ledger";
export const EIP712_VERSION = "1";

export const RECORD_TYPES = {
  Registration: [
    { name: "agentId", type: "string" },
    { name: "seasonId", type: "string" },
    { name: "creator", type: "address" },
    { name: "agentKey", type: "address" },
    { name: "style", type: "string" },
    { name: "registeredAt", type: "uint64" },
  ],
  Snapshot: [
    { name: "agentId", type: "string" },
    { name: "seasonId", type: "string" },
    { name: "takenAt", type: "uint64" },
    { name: "nav", type: "uint256" },
    { name: "flow", type: "int256" },
    { name: "investedBps", type: "uint16" },
  ],
  Decision: [
    { name: "agentId", type: "string" },
    { name: "seasonId", type: "string" },
    { name: "decidedAt", type: "uint64" },
    { name: "asset", type: "address" },
    { name: "action", type: "string" },
    { name: "source", type: "string" },
    { name: "confidenceBps", type: "uint16" },
    { name: "note", type: "string" },
  ],
  Trade: [
    { name: "agentId", type: "string" },
    { name: "seasonId", type: "string" },
    { name: "executedAt", type: "uint64" },
    { name: "asset", type: "address" },
    { name: "side", type: "string" },
    { name: "quantity", type: "uint256" },
    { name: "price", type: "uint256" },
    { name: "txHash", type: "bytes32" },
  ],
} as const satisfies Record<string, readonly TypedDataField[]>;

export type RecordType = keyof typeof RECORD_TYPES;

/** Records live off chain: the domain names no verifying contract. */
export function recordDomain(chainId: number | bigint) {
  return { name: EIP712_NAME, version: EIP712_VERSION, chainId: Number(chainId) };
}

/** What the engine's `POST /api/v1/records` takes. */
export interface SignedRecord {
  readonly type: RecordType;
  readonly message: Record<string, unknown>;
  readonly signature: string;
  readonly creatorSignature?: string;
}

/**
 * Signs one record with the agent's key. Numbers follow the engine's JSON forms: uint64/uint16 as
 * JSON integers, uint256/int256 as decimal strings (bigint is accepted and converted).
 */
export async function signRecord(
  signer: Signer,
  chainId: number | bigint,
  type: RecordType,
  message: Record<string, unknown>,
): Promise<SignedRecord> {
  const json = Object.fromEntries(
    Object.entries(message).map(([key, value]) => [
      key,
      typeof value === "bigint" ? value.toString() : value,
    ]),
  );
  const types = { [type]: RECORD_TYPES[type].map((f) => ({ ...f })) };
  const signature = await signer.signTypedData(recordDomain(chainId), types, json);
  return { type, message: json, signature };
}

/** A Registration needs the creator's signature of the same typed data as well. */
export async function signRegistration(
  agentSigner: Signer,
  creatorSigner: Signer,
  chainId: number | bigint,
  message: Record<string, unknown>,
): Promise<SignedRecord> {
  const signed = await signRecord(agentSigner, chainId, "Registration", message);
  const byCreator = await signRecord(creatorSigner, chainId, "Registration", message);
  return { ...signed, creatorSignature: byCreator.signature };
}
