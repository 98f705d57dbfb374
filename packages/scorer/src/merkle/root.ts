import { InvalidInputError } from "../errors";
import { type Digest, digestHex, sha256Digest } from "../digest";
import type { Hex32 } from "../hex";
import { EMPTY_ROOT, LEAF_PREFIX, NODE_PREFIX } from "./hashing";

/**
 * Merkle Tree Hash (RFC 9162 §2.1.1) built one leaf at a time with O(log n) memory: the roots of
 * the complete subtrees seen so far (the "compact range" [0, n)), one per set bit of n, largest
 * first. A new leaf merges with a pending subtree once per trailing 1 bit of the count; the root
 * folds the pending subtrees right to left, which is exactly the RFC's split at the largest
 * power of two on the unbalanced right edge. Hash inputs are written into two reused buffers and
 * digests travel as binary strings (see Digest), so adding a leaf allocates no Buffer.
 */
export class MerkleRootBuilder {
  private readonly leafInput = Buffer.alloc(33); // 0x00 ‖ seal
  private readonly nodeInput = Buffer.alloc(65); // 0x01 ‖ left ‖ right
  private readonly pending: Digest[] = [];
  private count = 0;

  constructor() {
    this.leafInput[0] = LEAF_PREFIX;
    this.nodeInput[0] = NODE_PREFIX;
  }

  /** Leaves added so far. */
  get size(): number {
    return this.count;
  }

  /**
   * Adds a seal written `0x` + 64 hex digits; anything else is refused as `<list>[<position>]`
   * (the name is assembled only on error: this runs once per leaf).
   */
  addHex(seal: string, list = "seals"): void {
    // Buffer#write stops at the first non-hex pair, so a short count means a bad digit.
    if (
      typeof seal !== "string" ||
      seal.length !== 66 ||
      seal.charCodeAt(0) !== 0x30 ||
      seal.charCodeAt(1) !== 0x78 ||
      this.leafInput.write(seal.slice(2), 1, 32, "hex") !== 32
    ) {
      throw new InvalidInputError(`${list}[${this.count}]`, "is not 0x followed by 64 hex digits", {
        value: seal,
      });
    }
    this.pushLeaf();
  }

  /** Adds a seal given as its 32 bytes. */
  add(seal: Uint8Array): void {
    if (seal.length !== 32) throw new InvalidInputError(`seals[${this.count}]`, "is not 32 bytes");
    this.leafInput.set(seal, 1);
    this.pushLeaf();
  }

  /** Adds a seal given as a Digest. */
  addDigest(seal: Digest): void {
    this.leafInput.write(seal, 1, "binary");
    this.pushLeaf();
  }

  /** The root of the leaves added so far; sha256("") when there are none. */
  root(): Hex32 {
    if (this.pending.length === 0) return EMPTY_ROOT;
    let node = this.pending[this.pending.length - 1]!;
    for (let i = this.pending.length - 2; i >= 0; i--) node = this.node(this.pending[i]!, node);
    return digestHex(node);
  }

  private pushLeaf(): void {
    let node = sha256Digest(this.leafInput);
    // Plain arithmetic, not bit operators: counts may pass 2^31.
    for (let c = this.count; c % 2 === 1; c = (c - 1) / 2) node = this.node(this.pending.pop()!, node);
    this.pending.push(node);
    this.count += 1;
  }

  private node(left: Digest, right: Digest): Digest {
    this.nodeInput.write(left, 1, "binary");
    this.nodeInput.write(right, 33, "binary");
    return sha256Digest(this.nodeInput);
  }
}

/** Merkle Tree Hash (RFC 9162 §2.1.1) of a list of seals; the empty tree hashes to sha256(""). */
export function merkleRoot(seals: readonly Hex32[]): Hex32 {
  const builder = new MerkleRootBuilder();
  for (let i = 0; i < seals.length; i++) builder.addHex(seals[i]!);
  return builder.root();
}
