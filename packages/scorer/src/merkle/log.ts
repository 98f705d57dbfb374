import { type Digest, digestHex, sha256Digest } from "../digest";
import { InvalidInputError } from "../errors";
import type { Hex32 } from "../hex";
import { MerkleRangeError } from "./errors";
import { EMPTY_ROOT, LEAF_PREFIX, NODE_PREFIX, splitPoint } from "./hashing";
import type { ConsistencyProof, InclusionProof } from "./verify";

const HASH = 32;

/** A tree size's right edge: its complete subtrees' starts, largest first, and the fold from each to the end. */
interface Edge {
  readonly starts: number[];
  readonly folds: Hex32[];
}
/** Tree sizes whose right edge is kept (least recently used out): heads being served. */
const EDGE_CACHE_SIZES = 64;

// Sizes may exceed 2^32, where JavaScript's bit operators would wrap: plain arithmetic only.
function isPowerOfTwo(x: number): boolean {
  while (x > 1 && x % 2 === 0) x /= 2;
  return x === 1;
}

/**
 * The append-only Merkle log (RFC 6962 / RFC 9162 hashing) of every seal, answering the root,
 * inclusion proofs and consistency proofs for any past size.
 *
 * Invariant: level h holds, back to back in one growable buffer, the hashes of the complete
 * subtrees of 2^h leaves [j·2^h, (j+1)·2^h) for j < size >> h — every such subtree is final the
 * moment its last leaf is appended, since the log never changes a leaf. Any subtree the RFC
 * recursion asks about, for any size ≤ the current one, is a left-aligned run of complete
 * subtrees, so a root or proof costs at most popcount(size) − 1 hashes (none when the size's
 * right edge is cached) and never a rebuild. Memory is about 64 bytes per leaf.
 */
export class MerkleLog {
  private readonly levels: Buffer[] = [];
  private leafCount = 0;
  private readonly nodeInput = Buffer.alloc(1 + 2 * HASH);
  private readonly leafInput = Buffer.alloc(1 + HASH);
  private readonly edges = new Map<number, Edge>();

  constructor(seals: Iterable<Hex32> = []) {
    this.nodeInput[0] = NODE_PREFIX;
    this.leafInput[0] = LEAF_PREFIX;
    // Known length: size every level exactly once instead of doubling (less peak memory).
    if (Array.isArray(seals)) {
      for (let level = 0, count = seals.length; count >= 1; level += 1, count = Math.floor(count / 2)) {
        this.levels[level] = Buffer.allocUnsafe(count * HASH);
      }
    }
    for (const seal of seals) this.append(seal);
  }

  /** Number of leaves appended so far. */
  get size(): number {
    return this.leafCount;
  }

  /** Appends one seal (`0x` + 64 hex digits); returns its leaf index. */
  append(seal: Hex32): number {
    if (
      typeof seal !== "string" ||
      seal.length !== 66 ||
      !seal.startsWith("0x") ||
      this.leafInput.write(seal.slice(2), 1, HASH, "hex") !== HASH
    ) {
      throw new InvalidInputError(`seal #${this.leafCount}`, "is not 0x followed by 64 hex digits", {
        value: seal,
      });
    }
    return this.appendLeafDigest(sha256Digest(this.leafInput));
  }

  /**
   * Appends a leaf by its hash (sha256(0x00 ‖ leaf data)). For leaves that are not seals, e.g.
   * the Certificate Transparency test vectors; `append` is the normal entry point.
   */
  appendLeafHash(hash: Uint8Array): number {
    if (hash.length !== HASH) throw new InvalidInputError("leafHash", "is not 32 bytes");
    return this.appendLeafDigest(Buffer.from(hash.buffer, hash.byteOffset, HASH).toString("binary"));
  }

  private appendLeafDigest(digest: Digest): number {
    const index = this.leafCount;
    this.store(0, index, digest);
    // Completing a left-aligned pair completes its parent: climb while the index is a right child.
    // The two children sit side by side in their level's buffer: one copy forms the node input.
    let node = index;
    let level = 0;
    while (node % 2 === 1) {
      this.levels[level]!.copy(this.nodeInput, 1, (node - 1) * HASH, (node + 1) * HASH);
      node = (node - 1) / 2;
      level += 1;
      this.store(level, node, sha256Digest(this.nodeInput));
    }
    this.leafCount = index + 1;
    return index;
  }

  /** The hash of leaf `index`: sha256(0x00 ‖ seal). */
  leafHash(index: number): Hex32 {
    this.checkIndex(index, this.leafCount);
    return this.nodeHex(0, index);
  }

  /** The root of the first `treeSize` leaves (default: all); sha256("") for the empty tree. */
  root(treeSize: number = this.leafCount): Hex32 {
    this.checkSize(treeSize, "treeSize");
    return treeSize === 0 ? EMPTY_ROOT : this.edge(treeSize).folds[0]!;
  }

  /** RFC 9162 §2.1.3.1 inclusion proof of leaf `leafIndex` in the tree of `treeSize` leaves. */
  inclusionProof(leafIndex: number, treeSize: number = this.leafCount): InclusionProof {
    this.checkSize(treeSize, "treeSize");
    this.checkIndex(leafIndex, treeSize);
    const proof: Hex32[] = [];
    this.path(leafIndex, 0, treeSize, proof);
    return { leafIndex, treeSize, root: this.root(treeSize), proof };
  }

  /** RFC 9162 §2.1.4.1 consistency proof from the tree of `fromSize` leaves to `toSize` leaves. */
  consistencyProof(fromSize: number, toSize: number = this.leafCount): ConsistencyProof {
    this.checkSize(toSize, "toSize");
    if (fromSize > toSize) {
      throw new MerkleRangeError(`fromSize ${fromSize} is above toSize ${toSize}`, { fromSize, toSize });
    }
    this.checkSize(fromSize, "fromSize");
    const proof: Hex32[] = [];
    if (fromSize > 0 && fromSize < toSize) this.subproof(fromSize, 0, toSize, true, proof);
    return {
      fromSize,
      toSize,
      fromRoot: this.root(fromSize),
      toRoot: this.root(toSize),
      proof,
    };
  }

  // PATH(m, D[lo:hi]) of RFC 9162 §2.1.3.1, siblings appended leaf-first.
  private path(m: number, lo: number, hi: number, out: Hex32[]): void {
    if (hi - lo === 1) return;
    const k = splitPoint(hi - lo);
    if (m < lo + k) {
      this.path(m, lo, lo + k, out);
      out.push(this.subtree(lo + k, hi));
    } else {
      this.path(m, lo + k, hi, out);
      out.push(this.subtree(lo, lo + k));
    }
  }

  // SUBPROOF(m, D[lo:hi], b) of RFC 9162 §2.1.4.1.
  private subproof(m: number, lo: number, hi: number, complete: boolean, out: Hex32[]): void {
    const n = hi - lo;
    if (m === n) {
      if (!complete) out.push(this.subtree(lo, hi));
      return;
    }
    const k = splitPoint(n);
    if (m <= k) {
      this.subproof(m, lo, lo + k, complete, out);
      out.push(this.subtree(lo + k, hi));
    } else {
      this.subproof(m - k, lo + k, hi, false, out);
      out.push(this.subtree(lo, lo + k));
    }
  }

  /**
   * MTH(D[lo:hi]) for a range the RFC recursion produces: lo is a multiple of a power of two
   * ≥ hi − lo. A power-of-two range is one stored node; any other range is a suffix of the
   * decomposition of [0, hi) into complete subtrees (lo is hi with its low bits cleared), i.e. a
   * right-edge fold of the tree of size hi — taken from the edge cache of that size.
   */
  private subtree(lo: number, hi: number): Hex32 {
    const width = hi - lo;
    if (isPowerOfTwo(width)) return this.nodeHex(Math.round(Math.log2(width)), lo / width);
    const edge = this.edge(hi);
    return edge.folds[edge.starts.indexOf(lo)]!;
  }

  /**
   * The right edge of the tree of `size` leaves: the starts of its complete subtrees (largest
   * first) and, for each start, the fold of everything from there to the end. folds[0] is the
   * root. Building it costs popcount(size) − 1 hashes; then every root and proof for that size
   * costs none, which keeps proofs against the few posted heads in single-digit microseconds.
   * Entries never go stale: a size at or below the log's size names an immutable tree.
   */
  private edge(size: number): Edge {
    const cached = this.edges.get(size);
    if (cached !== undefined) {
      // Refresh its place in the least-recently-used order.
      this.edges.delete(size);
      this.edges.set(size, cached);
      return cached;
    }
    const starts: number[] = [];
    const parts: Digest[] = [];
    let start = 0;
    let width = 1;
    let level = 0;
    for (; width * 2 <= size; level += 1) width *= 2;
    for (; start < size; width /= 2, level -= 1) {
      if (start + width <= size) {
        starts.push(start);
        parts.push(this.nodeDigest(level, start / width));
        start += width;
      }
    }
    const digests = new Array<Digest>(parts.length);
    digests[parts.length - 1] = parts[parts.length - 1]!;
    for (let k = parts.length - 2; k >= 0; k--) {
      this.nodeInput.write(parts[k]!, 1, HASH, "binary");
      this.nodeInput.write(digests[k + 1]!, 1 + HASH, HASH, "binary");
      digests[k] = sha256Digest(this.nodeInput);
    }
    const entry: Edge = { starts, folds: digests.map(digestHex) };
    this.edges.set(size, entry);
    if (this.edges.size > EDGE_CACHE_SIZES) this.edges.delete(this.edges.keys().next().value!);
    return entry;
  }

  // Read straight from the level buffer: no Buffer view is allocated per node.
  private nodeHex(level: number, index: number): Hex32 {
    const start = index * HASH;
    return `0x${this.levels[level]!.toString("hex", start, start + HASH)}`;
  }

  private nodeDigest(level: number, index: number): Digest {
    const start = index * HASH;
    return this.levels[level]!.toString("binary", start, start + HASH);
  }

  private store(level: number, index: number, digest: Digest): void {
    let buffer = this.levels[level];
    const end = (index + 1) * HASH;
    if (buffer === undefined || buffer.length < end) {
      // Doubling keeps appends amortised O(1); the copy happens log n times per level.
      const grown = Buffer.allocUnsafe(Math.max(end, 2 * (buffer?.length ?? 0), 64 * HASH));
      if (buffer !== undefined) buffer.copy(grown, 0, 0, index * HASH);
      this.levels[level] = buffer = grown;
    }
    buffer.write(digest, index * HASH, HASH, "binary");
  }

  private checkSize(value: number, what: string): void {
    if (!Number.isSafeInteger(value) || value < 0 || value > this.leafCount) {
      throw new MerkleRangeError(`${what} ${value} is outside the log of ${this.leafCount} leaves`, {
        [what]: value,
        logSize: this.leafCount,
      });
    }
  }

  private checkIndex(index: number, treeSize: number): void {
    if (!Number.isSafeInteger(index) || index < 0 || index >= treeSize) {
      throw new MerkleRangeError(`leaf index ${index} is outside the tree of ${treeSize} leaves`, {
        leafIndex: index,
        treeSize,
      });
    }
  }
}
