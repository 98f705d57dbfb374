import type { TypedDataDomain, TypedDataField } from "ethers";
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
