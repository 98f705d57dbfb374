import { AbiCoder, getAddress, Interface, type Block, type Filter, type Log } from "ethers";
import { erc20, TRANSFER_TOPIC } from "../chain/abi/stewardship";

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
 * reads (JSON-RPC batches today; Multicall3 at 0xcA11bde05977b3631167028862bE2a173976CA11 is a
 * drop-in replacement of this one method).
 */
export interface MeasureChain {
  /** The last block whose timestamp is ≤ `at` (the pinned rule). */
  blockAt(at: number): Promise<PinnedBlock>;
  /** Block `n` (a trade's time is its block's). */
  block(n: number): Promise<PinnedBlock>;
  /** `balanceOf(wallet)` of every token at `block`: result[w][t]. */
  readBalances(block: number, wallets: readonly string[], tokens: readonly string[]): Promise<bigint[][]>;
  /** Transfers of `tokens` into or out of `wallets` in blocks (fromBlock, toBlock]. */
  transfers(
    tokens: readonly string[],
    wallets: readonly string[],
    after: number,
    through: number,
  ): Promise<TransferLog[]>;
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

const BALANCE_OF = "0x70a08231";
/** Uniswap v3 QuoterV2 (periphery `lens/QuoterV2.sol`), and the pool's fee tier. */
const quoterV2 = new Interface([
  "function quoteExactInputSingle((address tokenIn, address tokenOut, uint256 amountIn, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)",
]);
const poolFee = new Interface(["function fee() view returns (uint24)"]);
/** Multicall3, at the same address on every chain that has it. */
export const MULTICALL3 = "0xcA11bde05977b3631167028862bE2a173976CA11";
export const multicall3 = new Interface([
  "function aggregate3((address target, bool allowFailure, bytes callData)[] calls) payable returns ((bool success, bytes returnData)[] returnData)",
]);
/** balanceOf calls per aggregate3 (one eth_call each; the node's call gas cap bounds it). */
export const CALLS_PER_AGGREGATE = 500;
const coder = AbiCoder.defaultAbiCoder();
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
   * balance, JSON-RPC batched).
   */
  constructor(
    private readonly provider: MeasureProvider,
    private readonly quoter?: string,
    private readonly multicall?: string,
  ) {}

  async block(n: number): Promise<PinnedBlock> {
    const known = this.blocks.get(n);
    if (known) return known;
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
    const calls = wallets.flatMap((wallet) => {
      const data = BALANCE_OF + coder.encode(["address"], [wallet]).slice(2);
      return tokens.map((token) => ({ target: token, allowFailure: false, callData: data }));
    });
    const flat = this.multicall ? await this.aggregated(tag, calls) : await this.oneByOne(tag, calls);
    return wallets.map((_, w) => flat.slice(w * tokens.length, (w + 1) * tokens.length));
  }

  private oneByOne(
    tag: string,
    calls: ReadonlyArray<{ target: string; callData: string }>,
  ): Promise<bigint[]> {
    return Promise.all(
      calls.map(async (c) =>
        BigInt((await this.provider.send("eth_call", [{ to: c.target, data: c.callData }, tag])) as string),
      ),
    );
  }

  private async aggregated(
    tag: string,
    calls: ReadonlyArray<{ target: string; allowFailure: boolean; callData: string }>,
  ): Promise<bigint[]> {
    const chunks = [];
    for (let i = 0; i < calls.length; i += CALLS_PER_AGGREGATE)
      chunks.push(calls.slice(i, i + CALLS_PER_AGGREGATE));
    const answers = await Promise.all(
      chunks.map(async (chunk) => {
        const data = multicall3.encodeFunctionData("aggregate3", [chunk]);
        const raw = (await this.provider.send("eth_call", [{ to: this.multicall, data }, tag])) as string;
        const [results] = multicall3.decodeFunctionResult("aggregate3", raw) as unknown as [
          Array<{ returnData: string }>,
        ];
        return results.map((r) => BigInt(r.returnData));
      }),
    );
    return answers.flat();
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
    const seen = new Set<string>();
    const out: TransferLog[] = [];
    for (const log of [...outgoing, ...incoming]) {
      const key = `${log.transactionHash}|${log.index}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const parsed = erc20.parseLog(log)!;
      out.push({
        token: log.address.toLowerCase(),
        from: (parsed.args.getValue("from") as string).toLowerCase(),
        to: (parsed.args.getValue("to") as string).toLowerCase(),
        amount: parsed.args.getValue("value") as bigint,
        txHash: log.transactionHash.toLowerCase(),
        logIndex: log.index,
        blockNumber: log.blockNumber,
      });
    }
    return out.sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
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
