import { hash } from "node:crypto";
import { type Hex32, hex32Bytes, toHex32 } from "../hex";

// The RFC 6962 Merkle Tree Hash of merkle/root.ts (leaf = sha256(0x00 ‖ seal), node =
// sha256(0x01 ‖ left ‖ right), split at the largest power of two), built incrementally for a
// season's snapshot seals: one-shot hashes into reused buffers, and only one pending subtree per
// power of two held at a time, so a long season allocates almost nothing that outlives a row.
// Property-tested equal to merkleRoot.

const EMPTY_ROOT: Hex32 = "0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

export class SnapshotRootBuilder {
  private readonly leafInput = Buffer.alloc(33); // 0x00 ‖ seal
  private readonly nodeInput = Buffer.alloc(65); // 0x01 ‖ left ‖ right
  /** Complete subtrees, largest first: the binary decomposition of the leaf count. */
  private readonly hashes: Buffer[] = [];
  private readonly sizes: number[] = [];

  constructor() {
    this.nodeInput[0] = 0x01;
  }

  add(seal: Uint8Array): void {
    this.leafInput.set(seal, 1);
    let node: Buffer = hash("sha256", this.leafInput, "buffer");
    let size = 1;
    while (this.sizes.length > 0 && this.sizes[this.sizes.length - 1] === size) {
      node = this.node(this.hashes.pop()!, node);
      this.sizes.pop();
      size *= 2;
    }
    this.hashes.push(node);
    this.sizes.push(size);
  }

  root(): Hex32 {
    if (this.hashes.length === 0) return EMPTY_ROOT;
    // Right to left: each remaining subtree is the left sibling of everything after it.
    let node = this.hashes[this.hashes.length - 1]!;
    for (let i = this.hashes.length - 2; i >= 0; i--) node = this.node(this.hashes[i]!, node);
    return toHex32(node);
  }

  private node(left: Buffer, right: Buffer): Buffer {
    left.copy(this.nodeInput, 1);
    right.copy(this.nodeInput, 33);
    return hash("sha256", this.nodeInput, "buffer");
  }
}

export function snapshotRoot(seals: readonly Hex32[]): Hex32 {
  const builder = new SnapshotRootBuilder();
  for (const seal of seals) builder.add(hex32Bytes(seal));
  return builder.root();
}
