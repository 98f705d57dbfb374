import { canonicalJson, sealText, type Hex32 } from "@augur/scorer";
import { augurDomain } from "./eip712";
import type { SignedTypeName } from "./fields";
import type { NormalizedMessage } from "./validate";

export const RECORD_FORMAT = "augur-record/v1";

/**
 * The record as sealed: its type, the EIP-712 domain and the normalized message. Signatures are
 * kept beside it (not inside), so the same record always has the same seal, however it is signed.
 */
export interface SealedRecord {
  readonly format: typeof RECORD_FORMAT;
  readonly type: SignedTypeName;
  readonly domain: { readonly name: string; readonly version: string; readonly chainId: number };
  readonly message: NormalizedMessage;
}

export function sealedRecord(
  type: SignedTypeName,
  chainId: number,
  message: NormalizedMessage,
): SealedRecord {
  const { name, version } = augurDomain(chainId);
  return { format: RECORD_FORMAT, type, domain: { name: name!, version: version!, chainId }, message };
}

export function sealRecord(record: SealedRecord): { seal: Hex32; body: string } {
  // One canonical text: the body stored is exactly the bytes the seal hashes.
  const body = canonicalJson(record);
  return { seal: sealText(body), body };
}
