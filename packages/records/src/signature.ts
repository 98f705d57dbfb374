import { verifyTypedData } from "ethers";
import { augurDomain, typedDataTypes } from "./eip712";
import { BadSignatureError } from "./errors";
import type { SignedTypeName } from "./fields";
import type { NormalizedMessage } from "./validate";

const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

/** The lowercase address that signed the message, or a BadSignatureError naming `field`. */
export function recoverSigner(
  field: string,
  type: SignedTypeName,
  chainId: number,
  message: NormalizedMessage,
  signature: unknown,
): string {
  if (typeof signature !== "string" || !SIGNATURE.test(signature)) {
    throw new BadSignatureError(field, "must be a 65-byte signature (0x + 130 hex digits)");
  }
  try {
    return verifyTypedData(augurDomain(chainId), typedDataTypes(type), message, signature).toLowerCase();
  } catch {
    throw new BadSignatureError(field, "does not recover to any address");
  }
}
