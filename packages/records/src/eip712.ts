import { concat, keccak256, TypedDataEncoder, type TypedDataDomain, type TypedDataField } from "ethers";
import { LIFECYCLE_TYPE_NAMES, RECORD_TYPE_NAMES, SIGNED_FIELDS, type SignedTypeName } from "./fields";

export const EIP712_NAME = "Augur ledger";
export const EIP712_VERSION = "1";

/** The domain every record is signed under; no verifying contract (records live off chain). */
export function augurDomain(chainId: number): TypedDataDomain & { chainId: number } {
  return { name: EIP712_NAME, version: EIP712_VERSION, chainId };
}

/** The EIP-712 `types` object for one record type (it has no nested structs). */
export function typedDataTypes(type: SignedTypeName): Record<string, TypedDataField[]> {
  return { [type]: SIGNED_FIELDS[type].map((f) => ({ name: f.name, type: f.type })) };
}

/** Every signed type (records and lifecycle), as published at `GET /api/v1/eip712`. */
export function allTypedDataTypes(): Record<string, TypedDataField[]> {
  return Object.assign({}, ...[...RECORD_TYPE_NAMES, ...LIFECYCLE_TYPE_NAMES].map(typedDataTypes)) as Record<
    string,
    TypedDataField[]
  >;
}

const encoders = new Map<SignedTypeName, TypedDataEncoder>();
const domainHashes = new Map<number, string>();

/**
 * The EIP-712 digest a signature of `message` signs: `TypedDataEncoder.hash` with the type's
 * encoder and the chain's domain hash made once (ethers builds both afresh on every call, which
 * was half the cost of recovering a signer).
 */
export function typedDataDigest(
  chainId: number,
  type: SignedTypeName,
  message: Record<string, unknown>,
): string {
  let encoder = encoders.get(type);
  if (!encoder) encoders.set(type, (encoder = TypedDataEncoder.from(typedDataTypes(type))));
  let domainHash = domainHashes.get(chainId);
  if (!domainHash)
    domainHashes.set(chainId, (domainHash = TypedDataEncoder.hashDomain(augurDomain(chainId))));
  return keccak256(concat(["0x1901", domainHash, encoder.hash(message)]));
}
