import { InvalidInputError } from "../errors";
import { type Digest, digestHex, sha256Digest, writeDigest, writeHex32 } from "../digest";
import { type Hex32, toHex32 } from "../hex";
import { EMPTY_ROOT, LEAF_PREFIX, NODE_PREFIX } from "./hashing";

/** A Merkle tree's right edge: its size and its pending complete subtree roots, smallest first. */
export interface MerkleFrontier {
  readonly size: number;
  readonly nodes: readonly Hex32[];
}

/** The frontier of the empty tree. */
export const EMPTY_FRONTIER: MerkleFrontier = Object.freeze({ size: 0, nodes: Object.freeze([]) });

/** Bytes of one level's node input: 0x01 ‖ left ‖ right. */
const NODE_INPUT = 65;
/** Levels kept: a count below 2^53 (every count a JavaScript number holds exactly) has < 54 bits. */
const LEVELS = 54;

/**
 * Merkle Tree Hash (RFC 9162 §2.1.1) built one leaf at a time with O(log n) memory: the roots of
 * the complete subtrees seen so far (the "compact range" [0, n)), one per set bit of n. A new
 * leaf merges with a pending subtree once per trailing 1 bit of the count; the root folds the
 * pending subtrees right to left, which is exactly the RFC's split at the largest power of two on
 * the unbalanced right edge.
 *
 * Each level h owns the 65-byte input of the node hash that joins two subtrees of 2^h leaves,
 * 0x01 ‖ left ‖ right, and the pending subtree of that size lives in its left half while bit h of
 * the count is set. So every digest is copied once, straight to where it will be hashed (the
 * right half when it merges at once, else the left half), and hashed through a view made up
 * front: adding a leaf allocates nothing but the digests `crypto.hash` returns.
 */
export class MerkleRootBuilder {
  private readonly leafInput = new Uint8Array(33); // 0x00 ‖ seal
  private readonly levels = new Uint8Array(NODE_INPUT * LEVELS);
  /** Level h's node input as a view, made when level h is first reached (a builder per agent). */
  private readonly nodeInputs: Uint8Array[] = [];
  private count = 0;

  constructor() {
    this.leafInput[0] = LEAF_PREFIX;
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
    if (typeof seal !== "string" || !writeHex32(seal, this.leafInput, 1)) {
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
    writeDigest(seal, this.leafInput, 1);
    this.pushLeaf();
  }

  /**
   * The frontier (RFC 6962 right edge) of the leaves added so far: their count and the root of
   * each pending complete subtree, smallest first. `fromFrontier` resumes from it, so a tree can
   * be carried from one run to the next at O(log n) size.
   */
  frontier(): MerkleFrontier {
    const nodes: Hex32[] = [];
    for (let c = this.count, h = 0; c > 0; c = Math.floor(c / 2), h++)
      if (c % 2 === 1) nodes.push(toHex32(this.levels.subarray(h * NODE_INPUT + 1, h * NODE_INPUT + 33)));
    return Object.freeze({ size: this.count, nodes: Object.freeze(nodes) });
  }

  /** A builder holding the leaves `frontier` describes (one node per set bit of its size, smallest first). */
  static fromFrontier(frontier: MerkleFrontier): MerkleRootBuilder {
    const { size, nodes } = frontier;
    if (!Number.isSafeInteger(size) || size < 0)
      throw new InvalidInputError("frontier.size", "must be a whole number ≥ 0", { value: size });
    const builder = new MerkleRootBuilder();
    let k = 0;
    for (let c = size, h = 0; c > 0; c = Math.floor(c / 2), h++) {
      if (c % 2 === 0) continue;
      const node = nodes[k];
      if (node === undefined || !writeHex32(node, builder.levels, h * NODE_INPUT + 1))
        throw new InvalidInputError(`frontier.nodes[${k}]`, "is not 0x followed by 64 hex digits", {
          value: node,
        });
      k += 1;
    }
    if (k !== nodes.length)
      throw new InvalidInputError("frontier.nodes", `must hold ${k} nodes for size ${size}`, {
        value: nodes.length,
      });
    builder.count = size;
    return builder;
  }

  /** The root of the leaves added so far; sha256("") when there are none. Adding may go on. */
  root(): Hex32 {
    if (this.count === 0) return EMPTY_ROOT;
    // Smallest pending subtree first, each joined under the next larger one (its left sibling).
    // Only right halves are written, which hold nothing between leaves, so the state is kept.
    let node: Digest | null = null;
    for (let c = this.count, h = 0; c > 0; c = Math.floor(c / 2), h++) {
      if (c % 2 === 0) continue;
      if (node === null) {
        node = Buffer.from(this.levels.buffer, h * NODE_INPUT + 1, 32).toString("binary");
      } else {
        writeDigest(node, this.levels, h * NODE_INPUT + 33);
        node = sha256Digest(this.nodeInput(h));
      }
    }
    return digestHex(node!);
  }

  private pushLeaf(): void {
    let node = sha256Digest(this.leafInput);
    let h = 0;
    // Plain arithmetic, not bit operators: counts may pass 2^31.
    for (let c = this.count; c % 2 === 1; c = (c - 1) / 2, h++) {
      writeDigest(node, this.levels, h * NODE_INPUT + 33);
      node = sha256Digest(this.nodeInput(h));
    }
    writeDigest(node, this.levels, h * NODE_INPUT + 1);
    this.count += 1;
  }

  private nodeInput(h: number): Uint8Array {
    let input = this.nodeInputs[h];
    if (input === undefined) {
      input = this.levels.subarray(h * NODE_INPUT, (h + 1) * NODE_INPUT);
      input[0] = NODE_PREFIX;
      this.nodeInputs[h] = input;
    }
    return input;
  }
}

/** Merkle Tree Hash (RFC 9162 §2.1.1) of a list of seals; the empty tree hashes to sha256(""). */
export function merkleRoot(seals: readonly Hex32[]): Hex32 {
  const builder = new MerkleRootBuilder();
  for (let i = 0; i < seals.length; i++) builder.addHex(seals[i]!);
  return builder.root();
}
