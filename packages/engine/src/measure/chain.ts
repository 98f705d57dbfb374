import { AugurError } from "@augur/scorer";
import { getAddress, Interface, type Block, type Filter, type Log } from "ethers";
import { erc20, TRANSFER_TOPIC } from "../chain/abi/stewardship";
import {
  balanceOfData,
  decodeBalanceAggregate,
  encodeBalanceAggregate,
  MULTICALL3_ADDRESS,
  type BalanceCall,
} from "../chain/abi/multicall3";
import { chunksOf, mapBounded } from "./pool";

/** A block a measurement is pinned to. */
export interface PinnedBlock {
  readonly number: number;
  readonly hash: string;
  readonly timestamp: number;
}

/** One ERC-20 Transfer log touching a measured wallet. */
export interface TransferLog {
  readonly token: string;
  readonly from: string;
  readonly to: string;
  readonly amount: bigint;
  readonly txHash: string;
  readonly logIndex: number;
  readonly blockNumber: number;
}

/**
 * What measuring reads from the chain, behind one small interface: `readBalances` batches its
 * reads (Multicall3's `aggregate3` at 0xcA11bde05977b3631167028862bE2a173976CA11 where the chain
 * has it, JSON-RPC batches of single calls otherwise).
 */
export interface MeasureChain {
  /** The last block whose timestamp is ≤ `at` (the pinned rule). */
  blockAt(at: number): Promise<PinnedBlock>;
  /** Block `n` (a trade's time is its block's); `fresh`: asked of the node, not a cache (a reorg check). */
  block(n: number, fresh?: boolean): Promise<PinnedBlock>;
  /** `balanceOf(wallet)` of every token at `block`: result[w][t]. */
  readBalances(block: number, wallets: readonly string[], tokens: readonly string[]): Promise<bigint[][]>;
  /** Transfers of `tokens` into or out of `wallets` in blocks (fromBlock, toBlock]. */
  transfers(
    tokens: readonly string[],
    wallets: readonly string[],
    after: number,
    through: number,
  ): Promise<TransferLog[]>;
  /**
   * Every Transfer of `tokens` in blocks (after, through], whoever it is between, in chain order:
   * what carried balances apply (no topic can filter 10,000 wallets).
   */
  tokenTransfers(tokens: readonly string[], after: number, through: number): Promise<TransferLog[]>;
  decimals(token: string): Promise<number>;
  /**
   * What selling `amount` of `token` into `pool` for USDG would fetch at `block` (USDG base units),
   * or undefined when no quoter is configured.
   */
  sellQuote(
    block: number,
    pool: string,
    token: string,
    usdg: string,
    amount: bigint,
  ): Promise<bigint | undefined>;
}

/** Uniswap v3 QuoterV2 (periphery `lens/QuoterV2.sol`), and the pool's fee tier. */
const quoterV2 = new Interface([
  "function quoteExactInputSingle((address tokenIn, address tokenOut, uint256 amountIn, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)",
]);
const poolFee = new Interface(["function fee() view returns (uint24)"]);
/** Multicall3, at the same address on every chain that has it. */
export const MULTICALL3 = MULTICALL3_ADDRESS;
export { multicall3 } from "../chain/abi/multicall3";

/** How `readBalances` cuts its calls into requests and how many it keeps in flight. */
export interface BalanceReads {
  /**
   * `balanceOf` calls per `aggregate3` eth_call. The node's eth_call gas cap bounds it: one call
   * costs about 5,600 gas through aggregate3 (Hardhat's estimate), so 1,000 need about 5.6 M,
   * far under Hardhat's 30 M block limit and Nitro's 50 M default RPC gas cap.
   */
  readonly callsPerAggregate: number;
  /** Single eth_calls sent together without an aggregator (ethers' default JSON-RPC batch size). */
  readonly callsPerBatch: number;
  /** Requests (aggregates or batches) in flight at once: never all of them. */
  readonly concurrency: number;
  /**
   * Blocks per `eth_getLogs` of `tokenTransfers`: nodes cap a query's range or its answer (Alchemy
   * 2,000 blocks, many 10,000 logs); an hour of Robinhood Chain's 250 ms blocks is 14,400.
   */
  readonly blocksPerLogQuery: number;
}
export const DEFAULT_BALANCE_READS: BalanceReads = {
  callsPerAggregate: 1_000,
  callsPerBatch: 100,
  concurrency: 4,
  blocksPerLogQuery: 2_000,
};
/** The default `balanceOf` calls per aggregate3 eth_call. */
export const CALLS_PER_AGGREGATE = DEFAULT_BALANCE_READS.callsPerAggregate;

/** One request of a `readBalances` failed: which calls it carried, and why. */
export class BalanceReadError extends AugurError {
  override readonly name = "BalanceReadError";
  constructor(block: number, first: number, count: number, cause: unknown) {
    const why = cause instanceof Error ? cause.message : String(cause);
    super(
      "MEASURE_BALANCE_READ",
      `reading balances at block ${block} failed for calls ${first}..${first + count - 1}: ${why}`,
      { block, first, count, cause },
    );
  }
}
/** A log as the node answers `eth_getLogs` (the fields read), numbers decoded. */
interface RawLog {
  readonly address: string;
  readonly topics: readonly string[];
  readonly data: string;
  readonly transactionHash: string;
  readonly index: number;
  readonly blockNumber: number;
}

/** ERC-20 Transfer logs decoded by hand (10,000s an hour: ethers' coder is slow), once each, in chain order. */
function transferLogs(logs: readonly RawLog[]): TransferLog[] {
  const seen = new Set<string>();
  const out: TransferLog[] = [];
  for (const log of logs) {
    const key = `${log.transactionHash}|${log.index}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const [topic, from, to] = log.topics;
    if (topic !== TRANSFER_TOPIC || from === undefined || to === undefined || log.topics.length !== 3)
      throw new Error(`${log.address} log ${log.transactionHash}#${log.index} is not an ERC-20 Transfer`);
    if (!/^0x[0-9a-fA-F]{64}$/.test(log.data))
      throw new Error(`${log.address} Transfer ${log.transactionHash}#${log.index} has no 32-byte value`);
    out.push({
      token: log.address.toLowerCase(),
      from: `0x${from.slice(26).toLowerCase()}`,
      to: `0x${to.slice(26).toLowerCase()}`,
      amount: BigInt(log.data),
      txHash: log.transactionHash.toLowerCase(),
      logIndex: log.index,
      blockNumber: log.blockNumber,
    });
  }
  return out.sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
}
const topicOf = (address: string) => `0x${address.slice(2).toLowerCase().padStart(64, "0")}`;

/** The slice of an ethers provider measuring uses (a JsonRpcProvider, or Hardhat's in tests). */
export interface MeasureProvider {
  getBlockNumber(): Promise<number>;
  getBlock(n: number): Promise<Block | null>;
  getLogs(filter: Filter): Promise<Log[]>;
  send(method: string, params: unknown[]): Promise<unknown>;
}

/** The JSON-RPC implementation: ethers batches concurrent requests (`batchMaxCount` per batch). */
export class RpcMeasureChain implements MeasureChain {
  private readonly blocks = new Map<number, PinnedBlock>();
  private readonly decimalsOf = new Map<string, number>();
  private readonly fees = new Map<string, number>();

  /**
   * `quoter`: a Uniswap v3 QuoterV2 (without it, positions are marked at the oracle price alone);
   * `multicall`: a contract answering Multicall3's `aggregate3` (without it, one eth_call per
   * balance, JSON-RPC batched); `reads`: chunking and the pool's size.
   */
  constructor(
    private readonly provider: MeasureProvider,
    private readonly quoter?: string,
    private readonly multicall?: string,
    reads: Partial<BalanceReads> = {},
  ) {
    this.reads = { ...DEFAULT_BALANCE_READS, ...reads };
  }

  private readonly reads: BalanceReads;

  async block(n: number, fresh = false): Promise<PinnedBlock> {
    const known = this.blocks.get(n);
    if (known && !fresh) return known;
    const b = await this.provider.getBlock(n);
    if (!b?.hash) throw new Error(`block ${n} is not available`);
    const pinned = { number: n, hash: b.hash.toLowerCase(), timestamp: b.timestamp };
    this.blocks.set(n, pinned);
    return pinned;
  }

  async blockAt(at: number): Promise<PinnedBlock> {
    let hi = await this.provider.getBlockNumber();
    if ((await this.block(hi)).timestamp <= at) return this.block(hi);
    let lo = 0;
    if ((await this.block(0)).timestamp > at) throw new RangeError(`no block at or before ${at}`);
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if ((await this.block(mid)).timestamp <= at) lo = mid;
      else hi = mid;
    }
    return this.block(lo);
  }

  async readBalances(
    block: number,
    wallets: readonly string[],
    tokens: readonly string[],
  ): Promise<bigint[][]> {
    const tag = `0x${block.toString(16)}`;
    const calls = wallets.flatMap((owner) => tokens.map((token) => ({ token, owner })));
    const size = this.multicall ? this.reads.callsPerAggregate : this.reads.callsPerBatch;
    const parts = await mapBounded(chunksOf(calls, size), this.reads.concurrency, (chunk, c) =>
      this.readChunk(tag, chunk).catch((error: unknown) => {
        throw new BalanceReadError(block, c * size, chunk.length, error);
      }),
    );
    const flat = parts.flat();
    return wallets.map((_, w) => flat.slice(w * tokens.length, (w + 1) * tokens.length));
  }

  /** One request's balances: one aggregate3 eth_call, or single eth_calls sent together. */
  private async readChunk(tag: string, chunk: readonly BalanceCall[]): Promise<bigint[]> {
    if (this.multicall) {
      const data = encodeBalanceAggregate(chunk);
      const raw = (await this.provider.send("eth_call", [{ to: this.multicall, data }, tag])) as string;
      return decodeBalanceAggregate(raw, chunk.length);
    }
    return Promise.all(
      chunk.map(async ({ token, owner }) => {
        const answer = await this.provider.send("eth_call", [{ to: token, data: balanceOfData(owner) }, tag]);
        return BigInt(answer as string);
      }),
    );
  }

  async transfers(
    tokens: readonly string[],
    wallets: readonly string[],
    after: number,
    through: number,
  ): Promise<TransferLog[]> {
    if (through <= after || wallets.length === 0) return [];
    const ws = wallets.map(topicOf);
    const range = { address: [...tokens], fromBlock: after + 1, toBlock: through };
    const [outgoing, incoming] = await Promise.all([
      this.provider.getLogs({ ...range, topics: [TRANSFER_TOPIC, ws] }),
      this.provider.getLogs({ ...range, topics: [TRANSFER_TOPIC, null, ws] }),
    ]);
    return transferLogs([...outgoing, ...incoming]);
  }

  async tokenTransfers(tokens: readonly string[], after: number, through: number): Promise<TransferLog[]> {
    const ranges: Array<[number, number]> = [];
    for (let from = after + 1; from <= through; from += this.reads.blocksPerLogQuery)
      ranges.push([from, Math.min(through, from + this.reads.blocksPerLogQuery - 1)]);
    const hex = (n: number) => `0x${n.toString(16)}`;
    // Sent raw: ethers' Log objects cost seconds of client CPU for an hour's thousands of logs.
    const parts = await mapBounded(ranges, this.reads.concurrency, async ([from, to]) => {
      const filter = {
        address: [...tokens],
        fromBlock: hex(from),
        toBlock: hex(to),
        topics: [TRANSFER_TOPIC],
      };
      const answer = (await this.provider.send("eth_getLogs", [filter])) as Array<
        Omit<RawLog, "index" | "blockNumber"> & { logIndex: string; blockNumber: string }
      >;
      return answer.map((l) => ({ ...l, index: Number(l.logIndex), blockNumber: Number(l.blockNumber) }));
    });
    return transferLogs(parts.flat());
  }

  async sellQuote(block: number, pool: string, token: string, usdg: string, amount: bigint) {
    if (!this.quoter || amount === 0n) return this.quoter ? 0n : undefined;
    if (!this.fees.has(pool)) {
      const answer = (await this.provider.send("eth_call", [
        { to: pool, data: poolFee.encodeFunctionData("fee") },
        "latest",
      ])) as string;
      this.fees.set(pool, Number(BigInt(answer)));
    }
    const data = quoterV2.encodeFunctionData("quoteExactInputSingle", [
      { tokenIn: token, tokenOut: usdg, amountIn: amount, fee: this.fees.get(pool)!, sqrtPriceLimitX96: 0n },
    ]);
    const answer = (await this.provider.send("eth_call", [
      { to: this.quoter, data },
      `0x${block.toString(16)}`,
    ])) as string;
    return quoterV2.decodeFunctionResult("quoteExactInputSingle", answer)[0] as bigint;
  }

  async decimals(token: string): Promise<number> {
    const key = getAddress(token).toLowerCase();
    if (!this.decimalsOf.has(key)) {
      const data = erc20.encodeFunctionData("decimals");
      const answer = (await this.provider.send("eth_call", [{ to: key, data }, "latest"])) as string;
      this.decimalsOf.set(key, Number(BigInt(answer)));
    }
    return this.decimalsOf.get(key)!;
  }
}
