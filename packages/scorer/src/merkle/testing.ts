import { createHash } from "node:crypto";
import fc from "fast-check";
import { toHex32, type Hex32 } from "../hex";
import { EMPTY_ROOT, leafHash, nodeHash, splitPoint } from "./hashing";
import type { ConsistencyProof, InclusionProof } from "./verify";

// Shared by the TypeScript and the on-chain property tests, so both judge the same mutations.

const sealOf = (tag: number, i: number): Hex32 =>
  toHex32(createHash("sha256").update(`seal|${tag}|${i}`).digest());

// Property runs build thousands of logs: hash the common seals once.
const POOL: readonly Hex32[] = Array.from({ length: 1024 }, (_, i) => sealOf(0, i));

/** n distinct, reproducible seals: sha256("seal|" ‖ tag ‖ "|" ‖ i). */
export function sealsFor(n: number, tag = 0): Hex32[] {
  if (tag === 0 && n <= POOL.length) return POOL.slice(0, n);
  return Array.from({ length: n }, (_, i) => sealOf(tag, i));
}

/** The reference root: RFC 9162 §2.1.1 MTH as the RFC writes it, recursively, with Buffer hashing. */
export function referenceRoot(seals: readonly Hex32[]): Hex32 {
  const mth = (from: number, to: number): Buffer => {
    if (to - from === 1) return leafHash(seals[from]!);
    const k = splitPoint(to - from);
    return nodeHash(mth(from, from + k), mth(from + k, to));
  };
  return seals.length === 0 ? EMPTY_ROOT : toHex32(mth(0, seals.length));
}

export function flipBit(hash: Hex32, bit: number): Hex32 {
  const bytes = Buffer.from(hash.slice(2), "hex");
  bytes[(bit >> 3) % 32]! ^= 1 << (bit & 7);
  return toHex32(bytes);
}

/** A labelled wrong variant of an honest proof: every one of them must fail to verify. */
export interface Mutant<P> {
  readonly label: string;
  readonly proof: P;
}

/**
 * Every mutation the issue names, derived from `pick` (random numbers from fast-check).
 * A wrong tree size is paired with that size's real root (`rootOf`), as a verifier that looks
 * the root up by size (the registry) would see it: RFC 9162 verification binds the size only
 * through the root, so the same root with another size of identical path shape would verify.
 */
export function inclusionMutants(
  honest: InclusionProof,
  pick: number[],
  rootOf: (treeSize: number) => Hex32,
  logSize: number,
): Mutant<InclusionProof>[] {
  const { proof, leafIndex, treeSize } = honest;
  const at = (i: number, n: number): number => (pick[i % pick.length]! >>> 0) % n;
  const out: Mutant<InclusionProof>[] = [];
  if (proof.length > 0) {
    const i = at(0, proof.length);
    out.push({
      label: "flipped bit",
      proof: { ...honest, proof: replace(proof, i, flipBit(proof[i]!, at(1, 256))) },
    });
    out.push({ label: "truncated", proof: { ...honest, proof: proof.slice(0, -1) } });
    out.push({ label: "first dropped", proof: { ...honest, proof: proof.slice(1) } });
  }
  if (proof.length > 1) {
    const i = at(2, proof.length - 1);
    if (proof[i] !== proof[i + 1])
      out.push({ label: "swapped siblings", proof: { ...honest, proof: swap(proof, i) } });
  }
  out.push({ label: "extended", proof: { ...honest, proof: [...proof, honest.root] } });
  out.push({ label: "extended in front", proof: { ...honest, proof: [proof[0] ?? honest.root, ...proof] } });
  const otherIndex = (leafIndex + 1 + at(3, treeSize)) % (treeSize + 1);
  if (otherIndex !== leafIndex)
    out.push({ label: "wrong index", proof: { ...honest, leafIndex: otherIndex } });
  out.push({ label: "index out of range", proof: { ...honest, leafIndex: treeSize } });
  const otherSize = leafIndex + 1 + at(4, logSize - leafIndex);
  if (otherSize !== treeSize) {
    out.push({ label: "wrong size", proof: { ...honest, treeSize: otherSize, root: rootOf(otherSize) } });
  }
  out.push({ label: "double size", proof: { ...honest, treeSize: 2 * treeSize } });
  out.push({ label: "wrong root", proof: { ...honest, root: flipBit(honest.root, at(5, 256)) } });
  return out;
}

/**
 * As inclusionMutants. The old size is bound by the proof itself (the old root is rebuilt from
 * exactly the subtrees of the first fromSize leaves), so a wrong fromSize keeps the honest
 * roots; the new size is bound only through the new root, so a wrong toSize gets its real root.
 */
export function consistencyMutants(
  honest: ConsistencyProof,
  pick: number[],
  rootOf: (treeSize: number) => Hex32,
  logSize: number,
): Mutant<ConsistencyProof>[] {
  const { proof, fromSize, toSize } = honest;
  const at = (i: number, n: number): number => (pick[i % pick.length]! >>> 0) % n;
  const out: Mutant<ConsistencyProof>[] = [];
  if (proof.length > 0) {
    const i = at(0, proof.length);
    out.push({
      label: "flipped bit",
      proof: { ...honest, proof: replace(proof, i, flipBit(proof[i]!, at(1, 256))) },
    });
    out.push({ label: "truncated", proof: { ...honest, proof: proof.slice(0, -1) } });
    out.push({ label: "first dropped", proof: { ...honest, proof: proof.slice(1) } });
    out.push({ label: "extended", proof: { ...honest, proof: [...proof, honest.toRoot] } });
    out.push({ label: "extended in front", proof: { ...honest, proof: [proof[0]!, ...proof] } });
  } else if (fromSize !== toSize) {
    out.push({ label: "extended", proof: { ...honest, proof: [honest.toRoot] } });
  }
  if (proof.length > 1) {
    const i = at(2, proof.length - 1);
    if (proof[i] !== proof[i + 1])
      out.push({ label: "swapped siblings", proof: { ...honest, proof: swap(proof, i) } });
  }
  const otherFrom = 1 + ((fromSize + at(3, toSize)) % toSize);
  if (otherFrom !== fromSize && proof.length > 0) {
    out.push({ label: "wrong fromSize", proof: { ...honest, fromSize: otherFrom } });
  }
  const otherTo = Math.max(fromSize, 1) + at(4, logSize - Math.max(fromSize, 1) + 1);
  // From the empty tree every (size, real root) pair is a true statement: nothing to mutate.
  if (otherTo !== toSize && fromSize > 0) {
    out.push({ label: "wrong toSize", proof: { ...honest, toSize: otherTo, toRoot: rootOf(otherTo) } });
  }
  if (proof.length > 0) out.push({ label: "double toSize", proof: { ...honest, toSize: 2 * toSize } });
  out.push({ label: "fromSize above toSize", proof: { ...honest, fromSize: toSize + 1 } });
  out.push({ label: "wrong fromRoot", proof: { ...honest, fromRoot: flipBit(honest.fromRoot, at(5, 256)) } });
  if (fromSize > 0)
    out.push({ label: "wrong toRoot", proof: { ...honest, toRoot: flipBit(honest.toRoot, at(6, 256)) } });
  return out;
}

function replace<T>(items: readonly T[], i: number, value: T): T[] {
  return items.map((item, j) => (j === i ? value : item));
}

function swap<T>(items: readonly T[], i: number): T[] {
  const copy = [...items];
  [copy[i], copy[i + 1]] = [copy[i + 1]!, copy[i]!];
  return copy;
}

/** A log size in [1, 1024] and picks inside it: an index, an older size, and mutation choices. */
export const logCase = fc.integer({ min: 1, max: 1024 }).chain((size) =>
  fc.record({
    size: fc.constant(size),
    leafIndex: fc.integer({ min: 0, max: size - 1 }),
    treeSize: fc.integer({ min: 1, max: size }),
    fromSize: fc.integer({ min: 0, max: size }),
    pick: fc.array(fc.nat(), { minLength: 8, maxLength: 8 }),
  }),
);
