import type { Signer, TypedDataField } from "ethers";

import {
  augurDomain,
  ERASABLE_FIELDS,
  erasableText,
  hashFieldOf,
  EIP712_NAME,
  EIP712_VERSION,
  RECORD_TYPE_NAMES,
  type RecordTypeName,
  typedDataTypes,
} from "@augur/records";

// The record format is @augur/records' (the engine verifies with the same package and publishes
// it at GET /api/v1/eip712); the toolkit signs exactly those types.
export { EIP712_NAME, EIP712_VERSION };

export type RecordType = RecordTypeName;

export const RECORD_TYPES = Object.fromEntries(
  RECORD_TYPE_NAMES.map((type) => [type, typedDataTypes(type)[type]!]),
) as unknown as Readonly<Record<RecordType, readonly TypedDataField[]>>;

/** Records live off chain: the domain names no verifying contract. */
export function recordDomain(chainId: number | bigint) {
  return augurDomain(Number(chainId));
}

/** What the engine's `POST /api/v1/records` takes. */
export interface SignedRecord {
  readonly type: RecordType;
  readonly message: Record<string, unknown>;
  readonly signature: string;
  readonly creatorSignature?: string;
  readonly walletSignature?: string;
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

/**
 * A registration needs the creator's signature of the same typed data as well. A message with a
 * `wallet` is a RegistrationV2 (binds the account holding the agent's book): the wallet signs it
 * too (`walletSigner`, by default the agent's key, for an agent trading from its own key's account).
 * A contract wallet cannot sign: pass its EIP-1271 proof as `walletSignature` instead.
 */
export async function signRegistration(
  agentSigner: Signer,
  creatorSigner: Signer,
  chainId: number | bigint,
  message: Record<string, unknown>,
  wallet: { readonly walletSigner?: Signer; readonly walletSignature?: string } = {},
): Promise<SignedRecord> {
  const type: RecordType = message.wallet === undefined ? "Registration" : "RegistrationV2";
  const signed = await signRecord(agentSigner, chainId, type, message);
  const byCreator = await signRecord(creatorSigner, chainId, type, message);
  if (type === "Registration") return { ...signed, creatorSignature: byCreator.signature };
  const walletSignature =
    wallet.walletSignature ??
    (await signRecord(wallet.walletSigner ?? agentSigner, chainId, type, message)).signature;
  return { ...signed, creatorSignature: byCreator.signature, walletSignature };
}

/** What the engine's `POST /api/v1/retirements` takes: a `Retirement` signed by the agent's key. */
export interface SignedRetirement {
  readonly message: { readonly agentId: string; readonly seasonId: string; readonly retiredAt: number };
  readonly signature: string;
}

/**
 * Retires the agent from `retiredAt` (unix seconds): from then on it is no longer one of its
 * creator's active agents. One per agent and season; the engine seals and logs it.
 */
export async function signRetirement(
  signer: Signer,
  chainId: number | bigint,
  message: SignedRetirement["message"],
): Promise<SignedRetirement> {
  const signature = await signer.signTypedData(recordDomain(chainId), typedDataTypes("Retirement"), {
    ...message,
  });
  return { message: { ...message }, signature };
}

/** What the engine's `POST /api/v1/records/:seal/texts` takes, one per erasable field with text. */
export interface RecordText {
  readonly field: string;
  readonly text: string;
  readonly salt: string;
}

/**
 * Signs a record whose free text stays out of the sealed body (`DecisionV3`'s note): for each
 * erasable field the message carries `<field>Hash` = sha256(salt ‖ text) under a fresh random
 * salt, which is what the agent signs; the text and salt come back apart, to post after the record
 * (`POST /api/v1/records/:seal/texts`) so the engine can serve them and erase them on request. An
 * empty or absent text seals the zero hash and posts nothing.
 */
export async function signRecordWithTexts(
  signer: Signer,
  chainId: number | bigint,
  type: RecordType,
  message: Record<string, unknown>,
  texts: Readonly<Record<string, string>>,
): Promise<{ record: SignedRecord; texts: RecordText[] }> {
  const fields = ERASABLE_FIELDS[type] ?? [];
  const unknown = Object.keys(texts).find((field) => !fields.includes(field));
  if (unknown !== undefined) throw new TypeError(`${type} has no erasable field '${unknown}'`);
  const hashed = { ...message };
  const posted: RecordText[] = [];
  for (const field of fields) {
    const sealed = erasableText(texts[field] ?? "");
    hashed[hashFieldOf(field)] = sealed.hash;
    if (sealed.text !== "") posted.push({ field, text: sealed.text, salt: sealed.salt });
  }
  return { record: await signRecord(signer, chainId, type, hashed), texts: posted };
}
