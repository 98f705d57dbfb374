import { AugurError, MEASURED_SNAPSHOT_FORMAT, MEASURED_TRADE_FORMAT, pairTrades } from "@augur/scorer";
import type { JsonRpcProvider } from "ethers";
import { OracleCloses } from "../closes/oracle";
import { type PinnedBlock, RpcMeasureChain } from "../measure/chain";
import { HOUR, measureHour, poolTransfersOf, tradeBody, type MeasureOptions } from "../measure/hour";
import { readerProvider } from "./chain-provider";
import type { ChainReader, Remeasure } from "./deep";
import { type HttpOptions } from "./http";
import { rpcCall } from "./json-rpc";

/** A stored record this build cannot re-measure from the chain, or the chain does not bear out. */
export class NotRemeasurableError extends AugurError {
  override readonly name = "NotRemeasurableError";
  constructor(problem: string) {
    super("NOT_REMEASURABLE", problem);
  }
}

/** The chain behind `--rpc`, one JSON-RPC call at a time within the request deadline. */
export function chainReader(rpc: string, http: HttpOptions): ChainReader {
  return { call: (method, params) => rpcCall(rpc, method, params, http) };
}

/** What re-measuring needs besides the chain: the contracts the engine measured with. */
export interface RemeasureContracts {
  /** The PriceOracle (`--oracle`): prices, USDG and the listed pools. */
  readonly oracle?: string;
  /** Uniswap v3 QuoterV2 (`--quoter`): needed where a snapshot marks holdings at sell quotes. */
  readonly quoter?: string;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const isBlockNumber = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= -1;
const isText = (v: unknown): v is string => typeof v === "string" && v.length > 0;
const fail = (problem: string): never => {
  throw new NotRemeasurableError(problem);
};

/** The measuring chain pinned to the blocks a snapshot records, once they passed the pinned rule. */
class RecordedBlocks extends RpcMeasureChain {
  readonly pinned = new Map<number, number>();
  override async blockAt(at: number): Promise<PinnedBlock> {
    const n = this.pinned.get(at);
    if (n === undefined) return super.blockAt(at);
    if (n < 0) throw new RangeError(`no block at or before ${at}`);
    return this.block(n);
  }
}

/**
 * The pinned rule at `n` for boundary `at`: block n has timestamp ≤ at and the block after it
 * (where the chain has one yet) > at; -1 means the chain's first block is after `at`.
 */
async function checkPinned(chain: RpcMeasureChain, head: number, n: number, at: number, what: string) {
  if (n > head) fail(`${what} block ${n} is past the --rpc chain's head ${head}`);
  const stamp = n >= 0 ? (await chain.block(n)).timestamp : -Infinity;
  if (stamp > at) fail(`${what} block ${n} has timestamp ${stamp}, after ${at}`);
  const next = n < head ? (await chain.block(n + 1)).timestamp : Infinity;
  if (next <= at)
    fail(`${what} block ${n} is not the last block with timestamp ≤ ${at}: block ${n + 1} has ${next}`);
}

/** The recorded block is the chain's: same hash at that number, else another chain or a reorg. */
async function checkHash(provider: JsonRpcProvider, n: number, hash: string): Promise<void> {
  const found = (await provider.getBlock(n))?.hash?.toLowerCase();
  if (found === undefined)
    fail(`block ${n} is not on the --rpc chain (another chain, or a node not synced that far)`);
  if (found !== hash.toLowerCase())
    fail(
      `block ${n} on the --rpc chain has hash ${found}, the record names ${hash}: another chain, or a reorganised block`,
    );
}

interface Session {
  readonly provider: JsonRpcProvider;
  readonly chain: RecordedBlocks;
  readonly source: OracleCloses;
}

async function session(
  reader: ChainReader,
  contracts: RemeasureContracts,
  quoted: boolean,
): Promise<Session> {
  if (contracts.oracle === undefined)
    fail(
      "re-measuring needs --oracle ADDRESS (the PriceOracle the engine priced with: deployments/<network>.json)",
    );
  if (quoted && contracts.quoter === undefined)
    fail(
      "the record marks holdings no higher than QuoterV2 sell quotes: pass --quoter ADDRESS to re-take them",
    );
  const provider = await readerProvider(reader);
  const chainId = Number((await provider.getNetwork()).chainId);
  return {
    provider,
    chain: new RecordedBlocks(provider, quoted ? contracts.quoter : undefined),
    source: new OracleCloses(provider, contracts.oracle!, chainId),
  };
}

/**
 * The pooled rule as the record applied it: each holding's pooled total as stated (the quote for
 * it is re-taken; the other wallets' balances behind the total are their own snapshots' to show),
 * or none at all for a record sealed before the rule.
 */
function poolingOf(holdings: readonly unknown[]): MeasureOptions {
  const poolTotals = new Map<string, bigint>();
  for (const h of holdings) {
    if (!isObject(h) || h.pooled === undefined) continue;
    const total = isObject(h.pooled) ? h.pooled.balance : undefined;
    if (!isText(h.token) || typeof total !== "string" || !/^(0|[1-9][0-9]*)$/.test(total))
      return fail("a holding's pooled total is not { balance, sellQuote } in base units");
    poolTotals.set(h.token, BigInt(total));
  }
  return poolTotals.size === 0 ? { unpooled: true } : { poolTotals };
}

/**
 * An `augur-snapshot/v2` as the chain gives it now: the recorded block checked (its hash, the
 * pinned rule for T and for the previous boundary the flows start after), then measured again by
 * the engine's own `measureHour` (balances, `priceAt(asset, T)`, sell quotes where the record has
 * them, the pooled quote for each stated pool total, the hour's transfers) and derived by the same pure function. Every field is compared.
 */
async function remeasureSnapshot(body: Json, reader: ChainReader, contracts: RemeasureContracts) {
  const { block, takenAt: at, flowsAfterBlock, wallet, agentId, seasonId } = body;
  if (!isObject(block) || !isBlockNumber(block.number) || !isText(block.hash))
    return fail("the record's block is not { number, hash, timestamp }");
  if (!Number.isSafeInteger(at) || !isBlockNumber(flowsAfterBlock) || !isText(wallet))
    return fail("the record has no takenAt, flowsAfterBlock or wallet");
  if (!isText(agentId) || !isText(seasonId)) return fail("the record names no agentId or seasonId");
  const holdings = Array.isArray(body.holdings) ? body.holdings : [];
  const quoted = holdings.some((h) => isObject(h) && h.sellQuote !== undefined);
  const pooling = poolingOf(holdings);
  const { provider, chain, source } = await session(reader, contracts, quoted);
  try {
    await checkHash(provider, block.number, block.hash);
    const head = await provider.getBlockNumber();
    await checkPinned(chain, head, block.number, at as number, "the pinned");
    await checkPinned(chain, head, flowsAfterBlock, (at as number) - HOUR, "the flows-after");
    chain.pinned.set(at as number, block.number);
    chain.pinned.set((at as number) - HOUR, flowsAfterBlock);
    const { records, skipped } = await measureHour(
      chain,
      source,
      seasonId,
      [{ agentId, wallet }],
      at as number,
      pooling,
    );
    const snapshot = records.find((r) => r.kind === "snapshot");
    if (!snapshot) return fail(`the chain does not measure it: ${skipped[0]?.reason ?? "no snapshot"}`);
    return snapshot.body as unknown as Json;
  } finally {
    provider.destroy();
  }
}

/**
 * An `augur-trade/v2` as the chain gives it now: the wallet's transfers with listed pools in the
 * recorded transaction, paired by the same pure function, the trade at the recorded log index.
 */
async function remeasureTrade(body: Json, reader: ChainReader, contracts: RemeasureContracts) {
  const { txHash, logIndex, block: n, wallet, agentId, seasonId } = body;
  if (!isText(txHash) || !Number.isSafeInteger(logIndex) || !isBlockNumber(n) || n < 0 || !isText(wallet))
    return fail("the record has no txHash, logIndex, block or wallet");
  if (!isText(agentId) || !isText(seasonId)) return fail("the record names no agentId or seasonId");
  const { provider, chain, source } = await session(reader, contracts, false);
  try {
    const receipt = await provider.getTransactionReceipt(txHash);
    if (!receipt) return fail(`transaction ${txHash} is not on the --rpc chain`);
    if (receipt.blockNumber !== n)
      return fail(
        `transaction ${txHash} is in block ${receipt.blockNumber} on the --rpc chain, the record names ${n}`,
      );
    const listing = await source.listing();
    const pools = new Set(listing.stocks.map((s) => s.pool));
    const tokens = [listing.usdg, ...listing.stocks.map((s) => s.token)];
    const logs = (await chain.transfers(tokens, [wallet], n - 1, n)).filter(
      (l) => l.txHash === txHash.toLowerCase(),
    );
    const decimals = new Map<string, number>();
    for (const { token } of listing.stocks) decimals.set(token, await chain.decimals(token));
    const usdg = { token: listing.usdg, decimals: await chain.decimals(listing.usdg) };
    const trade = pairTrades(poolTransfersOf(wallet, logs, pools), usdg, decimals).trades.find(
      (t) => t.logIndex === logIndex,
    );
    if (!trade) return fail(`no swap of ${wallet} with a listed pool at log ${logIndex} of ${txHash}`);
    return tradeBody(
      { agentId, seasonId, wallet },
      usdg.decimals,
      trade,
      (await chain.block(n)).timestamp,
    ) as unknown as Json;
  } finally {
    provider.destroy();
  }
}

/**
 * The re-measurement of `augur verify --deep --rpc`: engine-measured snapshots and trades are
 * measured again at their recorded block. Snapshots signed by the agent (`type: "Snapshot"`)
 * record no block: nothing on chain pins them, so each one sampled fails, naming why.
 */
export function remeasurer(contracts: RemeasureContracts): Remeasure {
  return async (body, reader) => {
    if (body.format === MEASURED_SNAPSHOT_FORMAT) return remeasureSnapshot(body, reader, contracts);
    if (body.format === MEASURED_TRADE_FORMAT) return remeasureTrade(body, reader, contracts);
    if (body.type === "Snapshot")
      return fail(
        "agent-posted (a Snapshot signed by the agent's key): it records no block, balances or prices to re-measure",
      );
    return fail(
      `a ${String(body.type ?? body.format ?? "unknown")} record has no re-measurement in this build`,
    );
  };
}
