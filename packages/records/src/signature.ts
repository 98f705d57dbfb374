import { keccak_256 } from "@noble/hashes/sha3";
import { Signature } from "ethers";
import { recover } from "tiny-secp256k1";
import { typedDataDigestBytes } from "./eip712";
import { BadSignatureError } from "./errors";
import type { SignedTypeName } from "./fields";
import type { NormalizedMessage } from "./validate";

const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

/**
 * The lowercase address that signed the message, or a BadSignatureError naming `field`.
 * Accepts exactly what ethers' `verifyTypedData` accepts (its `Signature.from` judges v, r and s;
 * a property test holds the two equal), but recovers the key with libsecp256k1 compiled to
 * WebAssembly (`tiny-secp256k1`) from our own EIP-712 digest (`typedDataDigestBytes`): every record
 * submission recovers one or two keys, and ethers' JavaScript recovery cost about 7× as much.
 * (The native `secp256k1` binding was 5× faster still, but corrupted the heap now and then when
 * a worker thread that had loaded it was terminated: the ingest pool's workers.)
 */
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
    const { r, s, yParity } = Signature.from(signature);
    const digest = typedDataDigestBytes(chainId, type, message);
    const compact = Buffer.from(r.slice(2) + s.slice(2), "hex");
    const key = recover(digest, compact, yParity, false);
    if (key === null) throw new Error("no key");
    // An address is the last 20 bytes of the keccak of the uncompressed key without its 0x04.
    return `0x${Buffer.from(keccak_256(key.subarray(1)).subarray(12)).toString("hex")}`;
  } catch {
    throw new BadSignatureError(field, "does not recover to any address");
  }
}
