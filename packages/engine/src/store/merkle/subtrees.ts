/**
 * Which complete subtrees make up a range of the log. A complete subtree `(level, idx)` covers
 * leaves [idx·2^level, (idx+1)·2^level). Every range RFC 6962 ever hashes — [0, n) and the
 * ranges its recursion splits off — starts at a multiple of a power of two at least as large as
 * the range, and splits greedily into complete subtrees, largest first.
 */
export interface SubtreeKey {
  readonly level: number;
  readonly idx: number;
}

/** The complete subtrees covering [start, end), left to right. */
export function completeSubtrees(start: number, end: number): SubtreeKey[] {
  const out: SubtreeKey[] = [];
  let pos = start;
  while (pos < end) {
    let level = 0;
    while (pos % 2 ** (level + 1) === 0 && pos + 2 ** (level + 1) <= end) level++;
    out.push({ level, idx: pos / 2 ** level });
    pos += 2 ** level;
  }
  return out;
}

/** The largest power of two strictly below n (n ≥ 2). */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/**
 * The leaf ranges whose hashes form RFC 9162 §2.1.3.1's inclusion path of leaf `m` in a tree of
 * `n` leaves, in proof order (nearest the leaf first).
 */
export function inclusionRanges(m: number, n: number): Array<[number, number]> {
  const outerFirst: Array<[number, number]> = [];
  let lo = 0;
  let hi = n;
  while (hi - lo > 1) {
    const k = splitPoint(hi - lo);
    if (m < lo + k) {
      outerFirst.push([lo + k, hi]);
      hi = lo + k;
    } else {
      outerFirst.push([lo, lo + k]);
      lo += k;
    }
  }
  return outerFirst.reverse();
}

/**
 * The leaf ranges whose hashes form RFC 9162 §2.1.4.1's consistency proof from the tree of `m`
 * leaves to the tree of `n` leaves, in proof order (empty when m is 0 or m equals n).
 */
export function consistencyRanges(m: number, n: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const subproof = (size: number, lo: number, hi: number, complete: boolean): void => {
    if (size === hi - lo) {
      if (!complete) out.push([lo, hi]);
      return;
    }
    const k = splitPoint(hi - lo);
    if (size <= k) {
      subproof(size, lo, lo + k, complete);
      out.push([lo + k, hi]);
    } else {
      subproof(size - k, lo + k, hi, false);
      out.push([lo, lo + k]);
    }
  };
  if (m > 0 && m < n) subproof(m, 0, n, true);
  return out;
}
