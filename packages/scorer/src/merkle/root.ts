import { createHash } from "node:crypto";
import { InvalidInputError } from "../errors";
import { toHex32, type Hex32 } from "../hex";
import { EMPTY_ROOT, LEAF_PREFIX, NODE_PREFIX } from "./hashing";

/**
 * Merkle Tree Hash (RFC 9162 §2.1.1) of a list of seals; the empty tree hashes to sha256("").
 *
 * One streaming pass with O(log n) memory: a stack of the roots of the complete subtrees seen so
 * far (the "compact range" [0, i)). Leaf i merges with the stack top as many times as i + 1 has
 * trailing zero bits; at the end the stack is folded right to left, which is exactly the split
 * at the largest power of two for the unbalanced right edge. Each hash input is written into one
 * of two preallocated buffers, so the only allocation per hash is the 32-byte digest itself —
 * that keeps the pass within a small factor of bare sha256 throughput (see merkle.bench.ts).
 */
export function merkleRoot(seals: readonly Hex32[]): Hex32 {
  const n = seals.length;
  if (n === 0) return EMPTY_ROOT;
  const leafInput = Buffer.alloc(33);
  leafInput[0] = LEAF_PREFIX;
  const nodeInput = Buffer.alloc(65);
  nodeInput[0] = NODE_PREFIX;
  const stack: Buffer[] = [];
  for (let i = 0; i < n; i++) {
    writeSeal(leafInput, seals[i]!, i);
    let top = createHash("sha256").update(leafInput).digest();
    // i + 1 leaves seen: one merge per trailing zero bit of i + 1.
    for (let count = i + 1; count % 2 === 0; count /= 2) {
      nodeInput.set(stack.pop()!, 1);
      nodeInput.set(top, 33);
      top = createHash("sha256").update(nodeInput).digest();
    }
    stack.push(top);
  }
  let root = stack.pop()!;
  while (stack.length > 0) {
    nodeInput.set(stack.pop()!, 1);
    nodeInput.set(root, 33);
    root = createHash("sha256").update(nodeInput).digest();
  }
  return toHex32(root);
}

/** Decodes `0x` + 64 hex digits into target[1..33) without allocating; refuses anything else. */
function writeSeal(target: Buffer, seal: string, index: number): void {
  // Buffer#write stops at the first non-hex pair, so a short count means a bad digit.
  if (
    typeof seal !== "string" ||
    seal.length !== 66 ||
    seal.charCodeAt(0) !== 0x30 ||
    seal.charCodeAt(1) !== 0x78 ||
    target.write(seal.slice(2), 1, 32, "hex") !== 32
  ) {
    throw new InvalidInputError(`seals[${index}]`, "is not 0x followed by 64 hex digits", { value: seal });
  }
}
