import { InvalidInputError } from "../errors";
import { requireNumber, requireNumberOrNull, requireObject, requireString } from "./checks";
import { SECONDS_PER_DAY, toUnixSeconds } from "./timestamp";
import type { HolderIndexPoint, Holding, Timestamp, VaultInput } from "./types";

/** A portfolio snapshot: NAV in USD, `flow` = net deposits minus withdrawals since the one before, `invested` = fraction of NAV in positions. */
export interface SnapshotRecord {
  readonly at: Timestamp;
  readonly nav: number;
  readonly flow: number;
  readonly invested: number;
}

/** A fill: `quantity` units of `asset` at `price` USD each. */
export interface TradeRecord {
  readonly at: Timestamp;
  readonly asset: string;
  readonly side: "buy" | "sell";
  readonly quantity: number;
  readonly price: number;
}

/**
 * An agent's snapshots and trades, the same shapes as the season input of augur-score/v1.
 * Decisions are not read: "the share of observed days the strategy actually traded" counts
 * trades, and a decision to hold is not a trade.
 */
export interface AgentRecords {
  readonly snapshots: readonly SnapshotRecord[];
  readonly trades: readonly TradeRecord[];
}

/** What the venue knows and the records do not; each missing fact stays null (unknown). */
export interface VenueFacts {
  readonly liquidation_cushion?: number | null;
  readonly free_share?: number | null;
  readonly largest_depositor_share?: number | null;
}

export interface DeriveVaultOptions {
  readonly id: string;
  /** Records after this time are ignored; defaults to the latest record. */
  readonly asOf?: Timestamp;
  readonly venue?: VenueFacts;
}

interface Timed<T> {
  readonly seconds: number;
  readonly record: T;
}

function timed<T extends { readonly at: Timestamp }>(records: readonly T[], path: string): Timed<T>[] {
  return records.map((record, i) => {
    requireObject(record, `${path}[${i}]`);
    return { seconds: toUnixSeconds(record.at, `${path}[${i}].at`), record };
  });
}

/** Time order; records at the same time keep their given order (stable sort). */
function inTimeOrder<T>(items: Timed<T>[], asOf: number): Timed<T>[] {
  return items.filter((item) => item.seconds <= asOf).sort((a, b) => a.seconds - b.seconds);
}

/**
 * The holder-return curve from snapshots in time order: one share's value, 1 at the first snapshot. Each step removes the
 * period's flow before comparing NAVs, so a withdrawal (or a deposit) does not move the index.
 * A step from a NAV of 0 has no holder and leaves the index unchanged; a step that loses more
 * than everything floors the index at 0.
 */
export function holderIndexFromSnapshots(snapshots: readonly SnapshotRecord[]): HolderIndexPoint[] {
  const points: HolderIndexPoint[] = [];
  let index = 1;
  let previousNav: number | null = null;
  for (const record of snapshots) {
    index = nextIndex(index, previousNav, record);
    points.push({ at: record.at, index });
    previousNav = record.nav;
  }
  return points;
}

/** The index after one more snapshot (see `holderIndexFromSnapshots`). */
export function nextIndex(index: number, previousNav: number | null, record: SnapshotRecord): number {
  return previousNav !== null && previousNav > 0
    ? Math.max(0, (index * (record.nav - record.flow)) / previousNav)
    : index;
}

// Quantities summed in floating point can leave dust where the position is really closed.
const FLAT = 1e-9;

/** Per asset, in the order first traded: net and gross quantity and the last trade price. */
export type TradeBook = Map<string, { net: number; gross: number; lastPrice: number }>;

/** Adds one fill (in time order) to the book. */
export function addTrade(
  book: TradeBook,
  record: Pick<TradeRecord, "asset" | "side" | "quantity" | "price">,
): void {
  const entry = book.get(record.asset) ?? { net: 0, gross: 0, lastPrice: record.price };
  entry.net += record.side === "buy" ? record.quantity : -record.quantity;
  entry.gross += record.quantity;
  entry.lastPrice = record.price;
  book.set(record.asset, entry);
}

/** The book's open positions, valued at each asset's last trade price; sorted by asset. */
export function bookHoldings(book: TradeBook): Holding[] {
  const holdings: Holding[] = [];
  for (const [instrument, { net, gross, lastPrice }] of book) {
    if (Math.abs(net) <= FLAT * gross) continue;
    holdings.push({ instrument, side: net > 0 ? "long" : "short", usd: Math.abs(net) * lastPrice });
  }
  return holdings.sort((a, b) => (a.instrument < b.instrument ? -1 : a.instrument > b.instrument ? 1 : 0));
}

/** Net position per asset from fills in time order, valued at that asset's last trade price; sorted by asset. */
export function holdingsFromTrades(trades: readonly TradeRecord[]): Holding[] {
  const book: TradeBook = new Map();
  for (const record of trades) addTrade(book, record);
  return bookHoldings(book);
}

/**
 * 1 for an unleveraged long book (last snapshot invested ≤ 1 and no short) when the venue does
 * not state the cushion, else null (the records do not state margin terms).
 */
export function cushionOf(
  venue: Required<VenueFacts>,
  lastInvested: number | undefined,
  holdings: readonly Holding[],
): number | null {
  const unleveraged =
    lastInvested !== undefined && lastInvested <= 1 && holdings.every((h) => h.side === "long");
  return venue.liquidation_cushion ?? (unleveraged ? 1 : null);
}

/** UTC days from the first snapshot's day to the as-of day, inclusive, and those of them a trade fell on. */
export function observedDays(
  firstSeconds: number,
  asOf: number,
  tradeDays: Iterable<number>,
): { days_observed: number; days_traded: number } {
  const firstDay = Math.floor(firstSeconds / SECONDS_PER_DAY);
  const active = new Set<number>();
  for (const day of tradeDays) if (day >= firstDay) active.add(day);
  return { days_observed: Math.floor(asOf / SECONDS_PER_DAY) - firstDay + 1, days_traded: active.size };
}

export function checkSnapshot(record: SnapshotRecord, path: string): void {
  requireNumber(record.nav, `${path}.nav`, { min: 0 });
  requireNumber(record.flow, `${path}.flow`);
  requireNumber(record.invested, `${path}.invested`, { min: 0 });
}

export function checkTrade(record: TradeRecord, path: string): void {
  requireString(record.asset, `${path}.asset`);
  if (record.side !== "buy" && record.side !== "sell") {
    throw new InvalidInputError(`${path}.side`, 'must be "buy" or "sell"');
  }
  requireNumber(record.quantity, `${path}.quantity`, { min: 0, above: true });
  requireNumber(record.price, `${path}.price`, { min: 0, above: true });
}

export function checkVenue(venue: VenueFacts): Required<VenueFacts> {
  const share = { min: 0, max: 1 };
  return {
    liquidation_cushion: requireNumberOrNull(venue.liquidation_cushion ?? null, "venue.liquidation_cushion", {
      min: 0,
    }),
    free_share: requireNumberOrNull(venue.free_share ?? null, "venue.free_share", share),
    largest_depositor_share: requireNumberOrNull(
      venue.largest_depositor_share ?? null,
      "venue.largest_depositor_share",
      share,
    ),
  };
}

/**
 * One vault's risk input from an agent's records:
 * - `holder_index` from the snapshots net of flows (null without snapshots);
 * - `holdings` = net position per asset from the trades, at the last trade price (null without
 *   snapshots: nothing of the book was observed);
 * - `liquidation_cushion` from the venue, else 1 for an unleveraged long book (last snapshot
 *   invested ≤ 1 and no short), else null (the records do not state margin terms);
 * - `days_observed` = UTC days from the first snapshot's day to the as-of day, inclusive;
 * - `days_traded` = those days holding at least one trade (a decision alone is not trading);
 * - `tvl_usd` = the last snapshot's NAV; exit and largest depositor only from the venue.
 */
export function deriveVaultInput(records: AgentRecords, options: DeriveVaultOptions): VaultInput {
  const id = requireString(options.id, "id");
  const venue = checkVenue(options.venue ?? {});
  const snapshots = timed(records.snapshots, "snapshots");
  const trades = timed(records.trades, "trades");
  snapshots.forEach(({ record }, i) => checkSnapshot(record, `snapshots[${i}]`));
  trades.forEach(({ record }, i) => checkTrade(record, `trades[${i}]`));

  let latest = -Infinity;
  for (const item of [...snapshots, ...trades]) if (item.seconds > latest) latest = item.seconds;
  const asOf = options.asOf === undefined ? latest : toUnixSeconds(options.asOf, "asOf");
  const orderedSnapshots = inTimeOrder(snapshots, asOf);
  for (let i = 1; i < orderedSnapshots.length; i++) {
    if (orderedSnapshots[i]!.seconds === orderedSnapshots[i - 1]!.seconds) {
      const at = records.snapshots.indexOf(orderedSnapshots[i]!.record);
      throw new InvalidInputError(`snapshots[${at}].at`, "repeats the time of another snapshot");
    }
  }
  const orderedTrades = inTimeOrder(trades, asOf);

  const holdings = holdingsFromTrades(orderedTrades.map((item) => item.record));
  const first = orderedSnapshots[0];
  const last = orderedSnapshots[orderedSnapshots.length - 1];
  const days = first
    ? observedDays(
        first.seconds,
        asOf,
        orderedTrades.map(({ seconds }) => Math.floor(seconds / SECONDS_PER_DAY)),
      )
    : { days_observed: null, days_traded: null };

  return {
    id,
    tvl_usd: last?.record.nav ?? 0,
    holder_index: first ? holderIndexFromSnapshots(orderedSnapshots.map((item) => item.record)) : null,
    // Without a snapshot nothing of the book was observed, so an empty trade list proves nothing.
    holdings: first ? holdings : null,
    liquidation_cushion: cushionOf(venue, last?.record.invested, holdings),
    free_share: venue.free_share,
    largest_depositor_share: venue.largest_depositor_share,
    ...days,
  };
}
