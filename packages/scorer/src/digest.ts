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

/**
 * Copies a digest's 32 bytes into `bytes` at `at`. A plain loop: for 32 bytes it is cheaper than
 * `Buffer#write(digest, at, "binary")`, whose argument handling and native call cost more than
 * the copy itself (measured in the Merkle root builder, which copies each digest once).
 */
export function writeDigest(digest: Digest, bytes: Uint8Array, at: number): void {
  for (let j = 0; j < 32; j++) bytes[at + j] = digest.charCodeAt(j);
}

/**
 * The byte of every pair of hex digits (either case), indexed by (first char code << 7) | second;
 * −1 for a pair that is not two hex digits. 32 KB: one lookup per byte instead of one per digit.
 */
const HEX_PAIRS = ((): Int16Array => {
  const table = new Int16Array(1 << 14).fill(-1);
  const digits = (v: number) => [...new Set([v.toString(16), v.toString(16).toUpperCase()])];
  for (let hi = 0; hi < 16; hi++)
    for (let lo = 0; lo < 16; lo++)
      for (const h of digits(hi))
        for (const l of digits(lo)) table[(h.charCodeAt(0) << 7) | l.charCodeAt(0)] = (hi << 4) | lo;
  return table;
})();

/**
 * Decodes `0x` + 64 hex digits (either case) into `bytes[at, at + 32)`; false, with those bytes
 * unspecified, if `text` is anything else. A lookup-table decode straight into the destination:
 * `Buffer#write(text.slice(2), at, 32, "hex")` does the same with a substring and a native call
 * per seal, which costs more than the decode itself at millions of seals.
 */
export function writeHex32(text: string, bytes: Uint8Array, at: number): boolean {
  if (text.length !== 66 || text.charCodeAt(0) !== 0x30 || text.charCodeAt(1) !== 0x78) return false;
  let pairs = 0; // negative once any pair is not two hex digits
  let chars = 0; // ≥ 128 once any char is not ASCII (the table is indexed by 7-bit codes)
  for (let j = 0, k = 2; j < 32; j++, k += 2) {
    const hi = text.charCodeAt(k);
    const lo = text.charCodeAt(k + 1);
    const byte = HEX_PAIRS[((hi << 7) | lo) & 0x3fff]!;
    pairs |= byte;
    chars |= hi | lo;
    bytes[at + j] = byte;
  }
  return pairs >= 0 && chars < 128;
}
