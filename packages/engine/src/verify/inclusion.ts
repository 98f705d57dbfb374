import { type Hex32, isHex32, hex32Bytes, leafHash, nodeHash, toHex32 } from "@augur/scorer";

// A local RFC 9162 §2.1.3.2 inclusion check, until the Merkle log's own `verifyInclusion`
// (packages/scorer/src/merkle) lands on main; then this file should go and callers use that.

/**
 * The root an inclusion proof leads to from `seal` at `leafIndex` in a tree of `treeSize`
 * leaves, or null when the proof has the wrong shape for that position.
 */
export function rootFromInclusionProof(
  seal: Hex32,
  leafIndex: number,
  treeSize: number,
  proof: readonly Hex32[],
): Hex32 | null {
  if (!Number.isSafeInteger(leafIndex) || !Number.isSafeInteger(treeSize)) return null;
  if (leafIndex < 0 || leafIndex >= treeSize || !proof.every(isHex32)) return null;
  let fn = leafIndex;
  let sn = treeSize - 1;
  let r: Buffer = leafHash(seal);
  for (const sibling of proof) {
    if (sn === 0) return null;
    const p = hex32Bytes(sibling);
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      // Skip the levels where this node has no right sibling (the tree's ragged right edge).
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? toHex32(r) : null;
}

export function verifyInclusionLocally(
  seal: Hex32,
  leafIndex: number,
  treeSize: number,
  proof: readonly Hex32[],
  root: Hex32,
): boolean {
  return rootFromInclusionProof(seal, leafIndex, treeSize, proof) === root;
}
