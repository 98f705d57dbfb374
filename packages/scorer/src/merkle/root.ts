import { createHash } from "node:crypto";
import { hex32Bytes, toHex32, type Hex32 } from "../hex";

// RFC 6962 / RFC 9162 §2.1.1 domain separation: leaves and interior nodes can never collide.
const LEAF_PREFIX = Buffer.of(0x00);
const NODE_PREFIX = Buffer.of(0x01);

/** leaf hash = sha256(0x00 ‖ seal bytes). */
export function leafHash(seal: Hex32): Buffer {
  return createHash("sha256").update(LEAF_PREFIX).update(hex32Bytes(seal)).digest();
}

/** node hash = sha256(0x01 ‖ left ‖ right). */
export function nodeHash(left: Uint8Array, right: Uint8Array): Buffer {
  return createHash("sha256").update(NODE_PREFIX).update(left).update(right).digest();
}

/** Merkle Tree Hash of a list of seals; the empty tree hashes to sha256(""). */
export function merkleRoot(seals: readonly Hex32[]): Hex32 {
  if (seals.length === 0) return toHex32(createHash("sha256").digest());
  // Fold level by level; an odd node is carried up unchanged, which is exactly RFC 6962's
  // "split at the largest power of two" for the unbalanced right edge.
  let level: Buffer[] = seals.map(leafHash);
  while (level.length > 1) {
    const next: Buffer[] = [];
    for (let i = 0; i + 1 < level.length; i += 2) next.push(nodeHash(level[i]!, level[i + 1]!));
    if (level.length % 2 === 1) next.push(level[level.length - 1]!);
    level = next;
  }
  return toHex32(level[0]!);
}
