// Test helpers (not tests): RFC 9162 inclusion proofs over a list of seals.
import { type Hex32, leafHash, nodeHash, toHex32 } from "@augur/scorer";

function largestPowerOfTwoBelow(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

function subtreeHash(leaves: readonly Hex32[]): Buffer {
  if (leaves.length === 1) return leafHash(leaves[0]!);
  const k = largestPowerOfTwoBelow(leaves.length);
  return nodeHash(subtreeHash(leaves.slice(0, k)), subtreeHash(leaves.slice(k)));
}

/** PATH(m, D[n]) of RFC 9162 §2.1.3.1, leaf to root. */
export function inclusionProof(leaves: readonly Hex32[], index: number): Hex32[] {
  if (leaves.length <= 1) return [];
  const k = largestPowerOfTwoBelow(leaves.length);
  if (index < k) return [...inclusionProof(leaves.slice(0, k), index), toHex32(subtreeHash(leaves.slice(k)))];
  return [...inclusionProof(leaves.slice(k), index - k), toHex32(subtreeHash(leaves.slice(0, k)))];
}
