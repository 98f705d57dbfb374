import { AugurError } from "@augur/scorer";
import { Contract, Interface, type ContractRunner } from "ethers";

/**
 * Multicall3 at its canonical address, the same on every chain that has it: Robinhood Chain
 * (config/robinhood.json, `multicall3`, with its source) and the replica, which installs
 * contracts/test/ReplicaMulticall3.sol there. The slice the engine uses: `aggregate3` and the block
 * reads that pin a batch to the block it ran in.
 */
export const MULTICALL3_ADDRESS = "0xcA11bde05977b3631167028862bE2a173976CA11";

export const MULTICALL3_ABI = [
  "function aggregate3((address target, bool allowFailure, bytes callData)[] calls) payable returns ((bool success, bytes returnData)[] returnData)",
  "function getBlockNumber() view returns (uint256 blockNumber)",
  "function getCurrentBlockTimestamp() view returns (uint256 timestamp)",
] as const;

export const multicall3 = new Interface(MULTICALL3_ABI);

/** One read of a batch: the contract, its interface, the function and its arguments. */
export interface BatchedRead {
  readonly target: string;
  readonly iface: Interface;
  readonly fn: string;
  readonly args: readonly unknown[];
}

/** A read's outcome: its decoded result, or `undefined` where the call reverted. */
export type BatchedResult = ReturnType<Interface["decodeFunctionResult"]> | undefined;

/**
 * Runs `reads` as one `eth_call` of `aggregate3` (each allowed to fail) at `blockTag` (default
 * latest), so every value comes from the same block, and decodes each answer with its interface.
 */
export async function readBatch(
  runner: ContractRunner,
  reads: readonly BatchedRead[],
  blockTag?: number | string,
): Promise<BatchedResult[]> {
  const contract = new Contract(MULTICALL3_ADDRESS, MULTICALL3_ABI, runner);
  const calls = reads.map((r) => ({
    target: r.target,
    allowFailure: true,
    callData: r.iface.encodeFunctionData(r.fn, r.args as unknown[]),
  }));
  const overrides = blockTag === undefined ? {} : { blockTag };
  const results = (await contract.getFunction("aggregate3").staticCall(calls, overrides)) as {
    success: boolean;
    returnData: string;
  }[];
  return results.map((result, i) => {
    const read = reads[i]!;
    return result.success ? read.iface.decodeFunctionResult(read.fn, result.returnData) : undefined;
  });
}

// `balanceOf` batches through `aggregate3`, encoded and decoded by hand: measuring's hot loop.
// ethers' generic coder takes seconds on one answer of a few thousand results (it builds a Result
// proxy per tuple); this layout is fixed, so each is string slicing. `multicall3.test.ts` checks
// both against ethers' coder over the ABI above.

/** `aggregate3((address,bool,bytes)[])`, from the one ABI above. */
export const AGGREGATE3_SELECTOR = multicall3.getFunction("aggregate3")!.selector;
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
