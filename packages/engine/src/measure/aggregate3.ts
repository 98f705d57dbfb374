/**
 * Multicall3 `aggregate3` for `balanceOf` batches, encoded and decoded by hand: the read path's
 * hot loop. ethers' generic coder takes seconds on one answer of a few thousand results (it
 * builds a Result proxy per tuple); these layouts are fixed, so each is string slicing.
 * `aggregate3.test.ts` checks both against ethers' coder.
 */
import { AugurError } from "@augur/scorer";

/** `aggregate3((address,bool,bytes)[])`. */
export const AGGREGATE3_SELECTOR = "0x82ad56cb";
const BALANCE_OF = "70a08231";
const word = (n: number) => n.toString(16).padStart(64, "0");
const address = (a: string) => {
  if (!/^0x[0-9a-fA-F]{40}$/.test(a)) throw new RangeError(`not an address: ${a}`);
  return a.slice(2).toLowerCase().padStart(64, "0");
};

/** The calldata of `balanceOf(owner)`. */
export const balanceOfData = (owner: string) => `0x${BALANCE_OF}${address(owner)}`;

/** One `balanceOf(owner)` on `token`. */
export interface BalanceCall {
  readonly token: string;
  readonly owner: string;
}

/**
 * The calldata of `aggregate3` over `calls`, none allowed to fail. Each Call3 is a dynamic tuple
 * of 6 words: target, allowFailure (0), the offset of callData (0x60), its length (36), then the
 * selector and the owner padded to two words.
 */
export function encodeBalanceAggregate(calls: readonly BalanceCall[]): string {
  const n = calls.length;
  const parts = [AGGREGATE3_SELECTOR, word(0x20), word(n)];
  for (let i = 0; i < n; i++) parts.push(word(n * 32 + i * 192));
  for (const c of calls)
    parts.push(address(c.token), word(0), word(0x60), word(36), BALANCE_OF, address(c.owner), "0".repeat(56));
  return parts.join("");
}

/** An `aggregate3` answer that is not `count` successful 32-byte results. */
export class AggregateAnswerError extends AugurError {
  override readonly name = "AggregateAnswerError";
  constructor(problem: string, details: Record<string, unknown>) {
    super("MEASURE_AGGREGATE_ANSWER", `aggregate3 answer: ${problem}`, details);
  }
}

/**
 * The `count` uint256 results of an `aggregate3` answer `raw` (0x-hex of `(bool,bytes)[]`), in
 * order. Offsets are followed, not assumed, so any valid encoding of the same results decodes.
 */
export function decodeBalanceAggregate(raw: string, count: number): bigint[] {
  if (!/^0x([0-9a-fA-F]{2})*$/.test(raw))
    throw new AggregateAnswerError("not hex bytes", { raw: raw.slice(0, 66) });
  const bytes = (raw.length - 2) / 2;
  /** The word at byte `at`, as a safe integer (offsets and lengths). */
  const small = (at: number, what: string) => {
    if (at + 32 > bytes)
      throw new AggregateAnswerError(`${what} at byte ${at} is past the end (${bytes} bytes)`, { at, bytes });
    const value = Number.parseInt(raw.slice(2 + at * 2, 2 + at * 2 + 64), 16);
    if (!Number.isSafeInteger(value) || value > bytes)
      throw new AggregateAnswerError(`${what} at byte ${at} is out of range`, { at, bytes });
    return value;
  };
  const array = small(0, "the array offset");
  const length = small(array, "the array length");
  if (length !== count)
    throw new AggregateAnswerError(`${length} results for ${count} calls`, { length, count });
  const body = array + 32;
  const out = new Array<bigint>(count);
  for (let i = 0; i < count; i++) {
    const tuple = body + small(body + i * 32, `result ${i}'s offset`);
    if (small(tuple, `result ${i}'s success flag`) !== 1)
      throw new AggregateAnswerError(`call ${i} failed`, { index: i });
    const data = tuple + small(tuple + 32, `result ${i}'s data offset`);
    const size = small(data, `result ${i}'s data length`);
    if (size !== 32)
      throw new AggregateAnswerError(`call ${i} returned ${size} bytes, not 32`, { index: i, size });
    if (data + 64 > bytes) throw new AggregateAnswerError(`result ${i} is past the end`, { index: i, bytes });
    out[i] = BigInt(`0x${raw.slice(2 + (data + 32) * 2, 2 + (data + 64) * 2)}`);
  }
  return out;
}
