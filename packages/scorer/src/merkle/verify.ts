import { sha256 } from "../digest";
import { isHex32, toHex32, type Hex32 } from "../hex";
import { MerkleProofError, MerkleRangeError } from "./errors";
import { EMPTY_ROOT, LEAF_PREFIX, NODE_PREFIX } from "./hashing";

// Standalone verifiers (RFC 9162 §2.1.3.2 and §2.1.4.2). They deliberately share nothing with
// the log builder but the hashing constants (prefixes, empty root), so a bug in the builder
// cannot hide itself by producing proofs that a sibling bug in the verifier accepts.

/** An inclusion proof as the CLI prints it and the API serves it. */
export interface InclusionProof {
  readonly leafIndex: number;
  readonly treeSize: number;
  readonly root: Hex32;
  readonly proof: readonly Hex32[];
}

/** A consistency proof as the CLI prints it and the API serves it. */
export interface ConsistencyProof {
  readonly fromSize: number;
  readonly toSize: number;
  readonly fromRoot: Hex32;
  readonly toRoot: Hex32;
  readonly proof: readonly Hex32[];
}

function sha(prefix: number, ...parts: Buffer[]): Buffer {
  return sha256(Buffer.concat([Buffer.of(prefix), ...parts]));
}

function bytes32(value: unknown, what: string): Buffer {
  if (value instanceof Uint8Array && value.length === 32) return Buffer.from(value);
  if (isHex32(value)) return Buffer.from(value.slice(2), "hex");
  throw new MerkleProofError(`${what} is not a 32-byte hash`, { value });
}

function size(value: unknown, what: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new MerkleRangeError(`${what} must be a non-negative safe integer`, { [what]: value });
  }
  return value;
}

const odd = (x: number): boolean => x % 2 === 1;
const half = (x: number): number => Math.floor(x / 2);

// Sizes may exceed 2^32, where JavaScript's bit operators would wrap: plain arithmetic only.
function isPowerOfTwo(x: number): boolean {
  while (x > 1 && x % 2 === 0) x /= 2;
  return x === 1;
}

/**
 * The root an inclusion proof leads to (RFC 9162 §2.1.3.2 steps 1–5), from the leaf's hash.
 * Throws MerkleRangeError when leafIndex ≥ treeSize and MerkleProofError when the proof has
 * the wrong number of elements for that index and size.
 */
export function rootFromInclusionProof(
  leafHash: Hex32 | Uint8Array,
  leafIndex: number,
  treeSize: number,
  proof: readonly (Hex32 | Uint8Array)[],
): Hex32 {
  size(leafIndex, "leafIndex");
  size(treeSize, "treeSize");
  if (leafIndex >= treeSize) {
    throw new MerkleRangeError(`leaf index ${leafIndex} is not below tree size ${treeSize}`, {
      leafIndex,
      treeSize,
    });
  }
  let fn = leafIndex;
  let sn = treeSize - 1;
  let r = bytes32(leafHash, "leaf hash");
  for (const [i, element] of proof.entries()) {
    const p = bytes32(element, `proof[${i}]`);
    if (sn === 0) throw new MerkleProofError("proof is longer than the path", { length: proof.length });
    if (odd(fn) || fn === sn) {
      r = sha(NODE_PREFIX, p, r);
      // A left sibling ends a run of levels where this node was the last, unpaired one.
      if (!odd(fn)) while (!odd(fn) && fn !== 0) [fn, sn] = [half(fn), half(sn)];
    } else {
      r = sha(NODE_PREFIX, r, p);
    }
    [fn, sn] = [half(fn), half(sn)];
  }
  if (sn !== 0) throw new MerkleProofError("proof is shorter than the path", { length: proof.length });
  return toHex32(r);
}

/**
 * Does `seal` sit at `leafIndex` of the tree of `treeSize` leaves with root `root`? A malformed
 * hash, index, size or proof length gives false; only a proof that is not an array throws.
 */
export function verifyInclusion(seal: Hex32, proof: InclusionProof): boolean {
  if (!isHex32(seal)) return false;
  return verifyLeafHashInclusion(toHex32(sha(LEAF_PREFIX, Buffer.from(seal.slice(2), "hex"))), proof);
}

/** As verifyInclusion, from the leaf hash itself (for leaves that are not seals, e.g. test vectors). */
export function verifyLeafHashInclusion(leafHash: Hex32 | Uint8Array, proof: InclusionProof): boolean {
  try {
    const root = bytes32(proof.root, "root");
    return rootFromInclusionProof(leafHash, proof.leafIndex, proof.treeSize, proof.proof) === toHex32(root);
  } catch (error) {
    if (error instanceof MerkleProofError || error instanceof MerkleRangeError) return false;
    throw error;
  }
}

/**
 * The new root a consistency proof leads to, after checking that it rebuilds `fromRoot`
 * (RFC 9162 §2.1.4.2). Needs 0 < fromSize ≤ toSize: from the empty tree every tree is
 * consistent and the proof carries nothing to compute the new root from.
 */
export function rootFromConsistencyProof(
  fromSize: number,
  toSize: number,
  fromRoot: Hex32 | Uint8Array,
  proof: readonly (Hex32 | Uint8Array)[],
): Hex32 {
  size(fromSize, "fromSize");
  size(toSize, "toSize");
  if (fromSize === 0 || fromSize > toSize) {
    throw new MerkleRangeError(`no consistency proof from size ${fromSize} to size ${toSize}`, {
      fromSize,
      toSize,
    });
  }
  const first = bytes32(fromRoot, "fromRoot");
  const path = proof.map((element, i) => bytes32(element, `proof[${i}]`));
  if (fromSize === toSize) {
    if (path.length !== 0) throw new MerkleProofError("proof between equal sizes must be empty");
    return toHex32(first);
  }
  // When the old tree is a complete subtree (power of two) its root is the path's first node.
  if (isPowerOfTwo(fromSize)) path.unshift(first);
  if (path.length === 0) throw new MerkleProofError("proof is empty");
  let fn = fromSize - 1;
  let sn = toSize - 1;
  while (odd(fn)) [fn, sn] = [half(fn), half(sn)];
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) throw new MerkleProofError("proof is longer than the path", { length: proof.length });
    if (odd(fn) || fn === sn) {
      fr = sha(NODE_PREFIX, c, fr);
      sr = sha(NODE_PREFIX, c, sr);
      if (!odd(fn)) while (!odd(fn) && fn !== 0) [fn, sn] = [half(fn), half(sn)];
    } else {
      sr = sha(NODE_PREFIX, sr, c);
    }
    [fn, sn] = [half(fn), half(sn)];
  }
  if (sn !== 0) throw new MerkleProofError("proof is shorter than the path", { length: proof.length });
  if (!fr.equals(first)) throw new MerkleProofError("proof does not rebuild the old root");
  return toHex32(sr);
}

/**
 * Is the tree of `toSize` leaves an append-only extension of the tree of `fromSize`? A malformed
 * hash, size or proof length gives false; only a proof that is not an array throws.
 */
export function verifyConsistency(proof: ConsistencyProof): boolean {
  try {
    const { fromSize, toSize } = proof;
    size(fromSize, "fromSize");
    size(toSize, "toSize");
    const toRoot = toHex32(bytes32(proof.toRoot, "toRoot"));
    const fromRoot = toHex32(bytes32(proof.fromRoot, "fromRoot"));
    if (fromSize > toSize) return false;
    // The tree of 0 leaves has one root, sha256("") (RFC 9162 §2.1.1): any other is no tree head,
    // so 0 → 0 needs it as much as 0 → n does. Every tree extends the empty one, with an empty proof.
    if (fromSize === 0 && fromRoot !== EMPTY_ROOT) return false;
    if (fromSize === toSize) return fromRoot === toRoot && proof.proof.length === 0;
    if (fromSize === 0) return proof.proof.length === 0;
    return rootFromConsistencyProof(fromSize, toSize, fromRoot, proof.proof) === toRoot;
  } catch (error) {
    if (error instanceof MerkleProofError || error instanceof MerkleRangeError) return false;
    throw error;
  }
}
