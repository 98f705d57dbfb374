import type { MeasuredSnapshotBody, MeasuredTradeBody } from "@augur/records";
import {
  deriveSnapshot,
  MEASURED_SNAPSHOT_FORMAT,
  MEASURED_TRADE_FORMAT,
  pairTrades,
  type HoldingReading,
  type MeasuredTrade,
  type PooledReading,
  type PoolTransfer,
} from "@augur/scorer";
import type { PriceReading } from "../closes/cache";
import type { EngineRecord } from "../store/append";
import type { MeasureChain, PinnedBlock, TransferLog } from "./chain";

/** USDG and the listed stocks with their pools (a transfer with a pool is a trade, not a flow). */
export interface Listing {
  readonly usdg: string;
  readonly stocks: ReadonlyArray<{ readonly token: string; readonly pool: string }>;
}

export interface MeasureSource {
  listing(): Promise<Listing>;
  /** `PriceOracle.priceAt(asset, at)`: the price CallLedger settles on. */
  priceAt(asset: string, at: number): Promise<PriceReading>;
}

export interface MeasuredWallet {
  readonly agentId: string;
  readonly wallet: string;
}

export interface HourMeasurement {
  readonly records: EngineRecord[];
  /** Agents left unmeasured this hour, with why (a price the oracle could not give). */
  readonly skipped: ReadonlyArray<{ readonly agentId: string; readonly reason: string }>;
  /** Transfers with a listed pool that paired into no trade (multi-hop routes, donations), per agent. */
  readonly unpaired: ReadonlyArray<{ readonly agentId: string; readonly txHash: string }>;
}

export const HOUR = 3600;

/** How a re-measurement (`augur verify --deep --rpc`) pins the pooled rule to what the record says. */
export interface MeasureOptions {
  /**
   * Each token's pooled total as the record states it (the other wallets of the hour are not
   * re-read): the quote for it is re-taken at the pinned block. Without it, the total is summed
   * over `wallets`.
   */
  readonly poolTotals?: ReadonlyMap<string, bigint>;
  /** The record predates the pooled rule: mark by the wallet's own quote alone, as it was sealed. */
  readonly unpooled?: boolean;
  /**
   * How the hour's balances are read (the cycle carries them from Transfer logs,
   * `measure/carried.ts`); without it, `chain.readBalances`, as a re-measurement does.
   */
  readonly balances?: HourBalances;
}

/**
 * result[w][t] at `block`, like `readBalances`; and, when it read them on the way, every
 * transfer of the tokens touching a wallet in blocks (`transfersAfter`, block].
 */
export type HourBalances = (
  block: PinnedBlock,
  wallets: readonly string[],
  tokens: readonly string[],
) => Promise<{ balances: bigint[][]; transfers?: readonly TransferLog[]; transfersAfter?: number }>;

/**
 * Measures every wallet at hour boundary `at`: balances at the last block with timestamp ≤ `at`,
 * `priceAt(token, at)` for every token held or moved, and the hour's transfers with anything but
 * a listed pool (blocks after the previous boundary's block, through this one's). Each result is
 * an engine-authored `augur-snapshot/v2` body carrying every reading it was derived from; each swap
 * with a listed pool in the hour's blocks is an `augur-trade/v2` record.
 */
export async function measureHour(
  chain: MeasureChain,
  source: MeasureSource,
  seasonId: string,
  wallets: readonly MeasuredWallet[],
  at: number,
  options: MeasureOptions = {},
): Promise<HourMeasurement> {
  if (wallets.length === 0) return { records: [], skipped: [], unpaired: [] };
  const listing = await source.listing();
  const stocks = listing.stocks.map((s) => s.token);
  const pools = new Set(listing.stocks.map((s) => s.pool.toLowerCase()));
  // USDG's decimals too are read, never assumed: deployments disagree between 6 and 18.
  const usdgToken = { token: listing.usdg, decimals: await chain.decimals(listing.usdg) };
  const stockDecimals = new Map<string, number>();
  for (const token of stocks) stockDecimals.set(token, await chain.decimals(token));
  const tokens = [listing.usdg, ...stocks];
  const block = await chain.blockAt(at).catch((error: unknown) => {
    if (error instanceof RangeError) return undefined;
    throw error;
  });
  // A boundary before the chain's first block (a season dated before it): nothing to measure.
  if (block === undefined) {
    const reason = `no block at or before ${at}`;
    return { records: [], skipped: wallets.map(({ agentId }) => ({ agentId, reason })), unpaired: [] };
  }
  // Flows since the previous boundary's block; before the chain's first block, since genesis.
  const previous = await chain.blockAt(at - HOUR).catch((error: unknown) => {
    if (error instanceof RangeError) return { number: -1 };
    throw error;
  });
  const addresses = wallets.map((w) => w.wallet);
  const { balances, logs } = await readHour(chain, options, block, previous.number, addresses, tokens);
  const prices = new Map<string, PriceReading>();
  const priceOf = async (token: string) => {
    if (!prices.has(token)) prices.set(token, await source.priceAt(token, at));
    return prices.get(token)!;
  };
  // Which stocks each wallet holds or moved, and the first of them the oracle cannot price (the
  // wallet is then skipped, and its balances stay out of the pooled totals: a verifier sums the
  // sealed snapshots).
  const heldBy = wallets.map(({ wallet }, w) => {
    const flows = flowsOf(wallet, logs, pools);
    return {
      flows,
      held: stocks.filter((t, i) => balances[w]![i + 1]! > 0n || flows.some((f) => f.token === t)),
    };
  });
  const missingBy: Array<string | undefined> = [];
  for (const { held } of heldBy) {
    let missing: string | undefined;
    for (const token of held) {
      const reading = await priceOf(token);
      if ("price18" in reading) continue;
      missing = `${token}: ${reading.missing}`;
      break;
    }
    missingBy.push(missing);
  }
  const sealed = balances.filter((_, w) => missingBy[w] === undefined);
  const pooledOf = pooledQuotes(chain, block.number, listing, stocks, sealed, options);
  const records: EngineRecord[] = [];
  const skipped: Array<{ agentId: string; reason: string }> = [];
  const unpaired: Array<{ agentId: string; txHash: string }> = [];
  for (const [w, { agentId, wallet }] of wallets.entries()) {
    const paired = pairTrades(poolTransfersOf(wallet, logs, pools), usdgToken, stockDecimals);
    for (const txHash of new Set(paired.unpaired.map((u) => u.txHash))) unpaired.push({ agentId, txHash });
    for (const t of paired.trades) {
      const executedAt = (await chain.block(t.blockNumber)).timestamp;
      records.push({
        kind: "trade",
        agentId,
        seasonId,
        body: tradeBody({ agentId, seasonId, wallet }, usdgToken.decimals, t, executedAt),
      });
    }
    const { flows, held } = heldBy[w]!;
    const missing = missingBy[w];
    if (missing) {
      skipped.push({ agentId, reason: `no price for ${missing}` });
      continue;
    }
    const holdings: HoldingReading[] = [];
    for (const token of held) {
      const reading = (await priceOf(token)) as { price18: bigint };
      const balance = balances[w]![stocks.indexOf(token) + 1]!;
      const pool = listing.stocks.find((s) => s.token === token)!.pool;
      const sellQuote = await chain.sellQuote(block.number, pool, token, listing.usdg, balance);
      const pooled = sellQuote === undefined ? undefined : await pooledOf(token);
      holdings.push({
        token,
        decimals: stockDecimals.get(token)!,
        balance,
        price: reading.price18,
        ...(sellQuote === undefined ? {} : { sellQuote }),
        ...(pooled === undefined ? {} : { pooled }),
      });
    }
    const usdg = { ...usdgToken, balance: balances[w]![0]! };
    const derived = deriveSnapshot({
      usdg,
      holdings,
      flows: flows.map((f) => ({ token: f.token, amount: f.amount })),
    });
    const body: MeasuredSnapshotBody = {
      format: MEASURED_SNAPSHOT_FORMAT,
      agentId,
      seasonId,
      wallet,
      takenAt: at,
      block: { number: block.number, hash: block.hash, timestamp: block.timestamp },
      flowsAfterBlock: previous.number,
      usdgDecimals: usdg.decimals,
      usdg: { token: usdg.token, balance: usdg.balance.toString() },
      holdings: holdings.map((h, i) => ({
        token: h.token,
        decimals: h.decimals,
        balance: h.balance.toString(),
        price: h.price.toString(),
        ...(h.sellQuote === undefined ? {} : { sellQuote: h.sellQuote.toString() }),
        ...(h.pooled === undefined
          ? {}
          : { pooled: { balance: h.pooled.balance.toString(), sellQuote: h.pooled.sellQuote.toString() } }),
        value: derived.values[i]!.toString(),
      })),
      transfers: flows.map((f) => ({
        token: f.token,
        txHash: f.txHash,
        logIndex: f.logIndex,
        block: f.blockNumber,
        counterparty: f.counterparty,
        amount: f.amount.toString(),
      })),
      nav: derived.nav.toString(),
      stockValue: derived.stockValue.toString(),
      flow: derived.flow.toString(),
      investedBps: derived.investedBps,
    };
    records.push({ kind: "snapshot", agentId, seasonId, body });
  }
  return { records, skipped, unpaired };
}

/** The hour's balances and its transfers touching the wallets, in (`after`, block]. */
async function readHour(
  chain: MeasureChain,
  options: MeasureOptions,
  block: PinnedBlock,
  after: number,
  wallets: readonly string[],
  tokens: readonly string[],
): Promise<{ balances: bigint[][]; logs: readonly TransferLog[] }> {
  if (!options.balances) {
    const [balances, logs] = await Promise.all([
      chain.readBalances(block.number, wallets, tokens),
      chain.transfers(tokens, wallets, after, block.number),
    ]);
    return { balances, logs };
  }
  const read = await options.balances(block, wallets, tokens);
  // The carried read's transfers serve when they reach back to the previous boundary's block.
  if (read.transfers && read.transfersAfter !== undefined && read.transfersAfter <= after)
    return { balances: read.balances, logs: read.transfers.filter((l) => l.blockNumber > after) };
  return { balances: read.balances, logs: await chain.transfers(tokens, wallets, after, block.number) };
}

/**
 * The pooled reading of each stock, taken once per pool and hour on first use: the sum of every
 * sealed wallet's balance (a skipped one's stays out) (or the total a re-measured record states) and the quote for selling
 * it all at the pinned block. Undefined for a record sealed before the pooled rule.
 */
function pooledQuotes(
  chain: MeasureChain,
  block: number,
  listing: Listing,
  stocks: readonly string[],
  balances: readonly bigint[][],
  options: MeasureOptions,
): (token: string) => Promise<PooledReading | undefined> {
  const taken = new Map<string, Promise<PooledReading | undefined>>();
  const take = async (token: string): Promise<PooledReading | undefined> => {
    if (options.unpooled) return undefined;
    const i = stocks.indexOf(token) + 1;
    const balance = options.poolTotals?.get(token) ?? balances.reduce((sum, row) => sum + row[i]!, 0n);
    const pool = listing.stocks.find((s) => s.token === token)!.pool;
    const sellQuote = await chain.sellQuote(block, pool, token, listing.usdg, balance);
    return sellQuote === undefined ? undefined : { balance, sellQuote };
  };
  return (token) => {
    if (!taken.has(token)) taken.set(token, take(token));
    return taken.get(token)!;
  };
}

/** The sealed `augur-trade/v2` body of one paired trade (its time is its block's). */
export function tradeBody(
  owner: { readonly agentId: string; readonly seasonId: string; readonly wallet: string },
  usdgDecimals: number,
  t: MeasuredTrade,
  executedAt: number,
): MeasuredTradeBody {
  return {
    format: MEASURED_TRADE_FORMAT,
    agentId: owner.agentId,
    seasonId: owner.seasonId,
    wallet: owner.wallet,
    pool: t.pool,
    asset: t.asset,
    side: t.side,
    quantity: t.quantity.toString(),
    usdgDecimals,
    usdgAmount: t.usdgAmount.toString(),
    price: t.price.toString(),
    txHash: t.txHash,
    logIndex: t.logIndex,
    block: t.blockNumber,
    executedAt,
  };
}

/** The wallet's transfers with a listed pool (the legs of its trades), signed (+ in, − out). */
export function poolTransfersOf(
  wallet: string,
  logs: readonly TransferLog[],
  pools: ReadonlySet<string>,
): PoolTransfer[] {
  const out: PoolTransfer[] = [];
  for (const log of logs) {
    const incoming = log.to === wallet;
    if (incoming === (log.from === wallet)) continue;
    const pool = incoming ? log.from : log.to;
    if (!pools.has(pool)) continue;
    const { token, txHash, logIndex, blockNumber } = log;
    out.push({ token, pool, amount: incoming ? log.amount : -log.amount, txHash, logIndex, blockNumber });
  }
  return out;
}

interface Flow {
  readonly token: string;
  readonly amount: bigint;
  readonly counterparty: string;
  readonly txHash: string;
  readonly logIndex: number;
  readonly blockNumber: number;
}

/** The wallet's transfers whose counterparty is not a listed pool, signed (+ in, − out); self-transfers drop out. */
function flowsOf(wallet: string, logs: readonly TransferLog[], pools: ReadonlySet<string>): Flow[] {
  const out: Flow[] = [];
  for (const log of logs) {
    const incoming = log.to === wallet;
    const outgoing = log.from === wallet;
    if (incoming === outgoing) continue;
    const counterparty = incoming ? log.from : log.to;
    if (pools.has(counterparty)) continue;
    out.push({
      token: log.token,
      amount: incoming ? log.amount : -log.amount,
      counterparty,
      txHash: log.txHash,
      logIndex: log.logIndex,
      blockNumber: log.blockNumber,
    });
  }
  return out;
}
