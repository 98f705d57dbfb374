import { hash } from "node:crypto";
import type { Hex32 } from "./hex";

/**
 * A sha256 digest as a 32-character "binary" (latin1) string, one char per byte. The hot paths
 * (Merkle roots, snapshot seals) pass digests this way because `crypto.hash` returns a string
 * about 3× faster than a Buffer: a Buffer result costs a native allocation per call, and at
 * millions of hashes that allocation (and its garbage) outweighs the hashing itself.
 */
export type Digest = string;

/** sha256 of `data` (a string is hashed as UTF-8) in one native call, as a Digest. */
export function sha256Digest(data: string | Uint8Array): Digest {
  return hash("sha256", data, "binary");
}

/** `0x` + hex of a digest. */
export function digestHex(digest: Digest): Hex32 {
  return `0x${Buffer.from(digest, "binary").toString("hex")}`;
}

/** sha256 of `data` (a string is hashed as UTF-8) in one native call, as bytes. */
export function sha256(data: string | Uint8Array): Buffer {
  return hash("sha256", data, "buffer");
}
