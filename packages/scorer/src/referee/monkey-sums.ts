import { MONKEYS } from "./constants";

/**
 * True when every partial sum of ±upUnits is an integer below 2⁵³ in magnitude, so double
 * arithmetic is exact and the fast path gives the same integers as arbitrary precision.
 */
export function fitsExactDoubles(upUnits: ArrayLike<number>): boolean {
  let total = 0;
  for (let c = 0; c < upUnits.length; c++) total += Math.abs(upUnits[c]!);
  return total <= Number.MAX_SAFE_INTEGER;
}

/**
 * Σ of each monkey's outcomes, in units: monkey m takes +upUnits[c] where bit m × n + c of
 * the stream is 1 and −upUnits[c] where it is 0. Exact when fitsExactDoubles(upUnits).
 *
 * Eight coins at a time: for each group of eight calls a 256-entry table holds the signed
 * sum for every pattern of eight coins, and each monkey reads its pattern from a 16-bit window
 * of the stream (its bits need not start on a byte boundary).
 */
export function monkeySums(upUnits: Float64Array, stream: Uint8Array, monkeys = MONKEYS): Float64Array {
  const n = upUnits.length;
  const groups = Math.ceil(n / 8);
  const table = new Float64Array(groups * 256);
  for (let g = 0; g < groups; g++) {
    const base = g * 256;
    let allDown = 0;
    for (let j = 0; j < 8 && 8 * g + j < n; j++) allDown -= upUnits[8 * g + j]!;
    table[base] = allDown;
    for (let pattern = 1; pattern < 256; pattern++) {
      const lowBit = 31 - Math.clz32(pattern & -pattern); // pattern bit 7 − j is call 8g + j
      const call = 8 * g + 7 - lowBit;
      const flip = call < n ? 2 * upUnits[call]! : 0;
      table[base + pattern] = table[base + (pattern & (pattern - 1))]! + flip;
    }
  }
  const sums = new Float64Array(monkeys);
  for (let m = 0; m < monkeys; m++) {
    let bit = m * n;
    let sum = 0;
    for (let g = 0; g < groups; g++, bit += 8) {
      const byte = Math.floor(bit / 8);
      const window = (((stream[byte]! << 8) | stream[byte + 1]!) >>> (8 - (bit % 8))) & 0xff;
      sum += table[g * 256 + window]!;
    }
    sums[m] = sum;
  }
  return sums;
}

/** The same sums in arbitrary precision, for outcomes too large for exact doubles. */
export function monkeySumsBig(upUnits: ArrayLike<number>, stream: Uint8Array, monkeys = MONKEYS): bigint[] {
  const n = upUnits.length;
  const units = Array.from({ length: n }, (_, c) => BigInt(upUnits[c]!));
  const sums: bigint[] = [];
  for (let m = 0; m < monkeys; m++) {
    let sum = 0n;
    for (let c = 0; c < n; c++) {
      const bit = m * n + c;
      const up = (stream[Math.floor(bit / 8)]! >>> (7 - (bit % 8))) & 1;
      sum += up ? units[c]! : -units[c]!;
    }
    sums.push(sum);
  }
  return sums;
}
