import { hash } from "node:crypto";
import { type Hex32, hex32Bytes } from "../hex";
import { type Digest, digestHex } from "./snapshot-seal";

// The RFC 6962 Merkle Tree Hash of merkle/root.ts (leaf = sha256(0x00 ‖ seal), node =
// sha256(0x01 ‖ left ‖ right), split at the largest power of two), built incrementally for a
// season's snapshot seals. Digests travel as "binary" (latin1) strings (see Digest) and are written into
// two reused input buffers, so hashing a row allocates no Buffer; only one pending subtree per
// power of two is held. Property-tested equal to merkleRoot.

const EMPTY_ROOT: Hex32 = "0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

export class SnapshotRootBuilder {
  private readonly leafInput = Buffer.alloc(33); // 0x00 ‖ seal
  private readonly nodeInput = Buffer.alloc(65); // 0x01 ‖ left ‖ right
  /** Complete subtrees, largest first: one per set bit of `count`, the highest bit first. */
  private readonly pending: Digest[] = [];
  private count = 0;

  constructor() {
    this.nodeInput[0] = 0x01;
  }

  /** Adds a seal given as its 32 bytes. */
  add(seal: Uint8Array): void {
    this.addDigest(Buffer.from(seal.buffer, seal.byteOffset, seal.byteLength).toString("binary"));
  }

  /** Adds a seal given as a Digest. */
  addDigest(seal: Digest): void {
    this.leafInput.write(seal, 1, "binary");
    let node = hash("sha256", this.leafInput, "binary");
    // Each trailing 1 bit of the count is a pending subtree the same size as `node`: merge it.
    for (let c = this.count; c & 1; c >>>= 1) node = this.node(this.pending.pop()!, node);
    this.pending.push(node);
    this.count += 1;
  }

  root(): Hex32 {
    if (this.pending.length === 0) return EMPTY_ROOT;
    // Right to left: each remaining subtree is the left sibling of everything after it.
    let node = this.pending[this.pending.length - 1]!;
    for (let i = this.pending.length - 2; i >= 0; i--) node = this.node(this.pending[i]!, node);
    return digestHex(node);
  }

  private node(left: Digest, right: Digest): Digest {
    this.nodeInput.write(left, 1, "binary");
    this.nodeInput.write(right, 33, "binary");
    return hash("sha256", this.nodeInput, "binary");
  }
}

export function snapshotRoot(seals: readonly Hex32[]): Hex32 {
  const builder = new SnapshotRootBuilder();
  for (const seal of seals) builder.add(hex32Bytes(seal));
  return builder.root();
}
