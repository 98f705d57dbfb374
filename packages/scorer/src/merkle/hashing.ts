import { sha256 } from "../digest";
import { hex32Bytes, type Hex32 } from "../hex";

// RFC 6962 §2.1 / RFC 9162 §2.1.1 domain separation: a leaf hash can never equal a node hash of
// the same bytes, so an inner node cannot be passed off as a leaf (second-preimage defence).
export const LEAF_PREFIX = 0x00;
export const NODE_PREFIX = 0x01;

/** The root of the empty tree: sha256 of the empty string. */
export const EMPTY_ROOT: Hex32 = "0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

const LEAF_PREFIX_BYTES = Buffer.of(LEAF_PREFIX);
const NODE_PREFIX_BYTES = Buffer.of(NODE_PREFIX);

/** leaf hash = sha256(0x00 ‖ seal bytes). */
export function leafHash(seal: Hex32): Buffer {
  return sha256(Buffer.concat([LEAF_PREFIX_BYTES, hex32Bytes(seal)]));
}

/** node hash = sha256(0x01 ‖ left ‖ right). */
export function nodeHash(left: Uint8Array, right: Uint8Array): Buffer {
  return sha256(Buffer.concat([NODE_PREFIX_BYTES, left, right]));
}

/** The largest power of two strictly below `n` (n ≥ 2): where RFC 6962 splits a tree of n leaves. */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}
