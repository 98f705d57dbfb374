import { InvalidInputError } from "../errors";
import {
  addTrade,
  bookHoldings,
  checkSnapshot,
  checkTrade,
  checkVenue,
  cushionOf,
  nextIndex,
  observedDays,
  type SnapshotRecord,
  type TradeBook,
  type TradeRecord,
  type VenueFacts,
} from "./derive";
import type { VaultSummary } from "./readings";
import { SECONDS_PER_DAY } from "./timestamp";
import { fallStep } from "./worst-fall";

/** A snapshot as the fold reads it (unix seconds). */
export type RiskSnapshot = SnapshotRecord & { readonly at: number };
/** A fill as the fold reads it (unix seconds). */
export type RiskTrade = TradeRecord & { readonly at: number };

/**
 * Everything risk-score/v1's readings take of one agent's book, carried hour by hour: the
 * holder index's last value, its peak and worst fall, the first and last snapshot, the net book
 * per asset, the UTC days traded; and the records seen but stamped after the as-of time they
 * were folded at (held, log order), which count from a later hour. Advanced in the order the
 * from-scratch `deriveVaultInput` reads the records (time order, ties in log order), so the
 * vault it gives reads exactly as that one's.
 */
export interface RiskFold {
  readonly asOf: number;
  readonly points: number;
  readonly firstAt: number | null;
  readonly lastAt: number | null;
  readonly index: number;
  readonly peak: number;
  readonly worst: number;
  readonly lastNav: number | null;
  readonly lastInvested: number | null;
  /** [asset, net, gross, last price], in the order first traded. */
  readonly book: readonly (readonly [string, number, number, number])[];
  /** UTC days holding a folded trade, ascending. */
  readonly tradeDays: readonly number[];
  readonly lastTradeAt: number | null;
  readonly heldSnapshots: readonly RiskSnapshot[];
  readonly heldTrades: readonly RiskTrade[];
}

export function emptyRiskFold(): RiskFold {
  return {
    asOf: -Infinity,
    points: 0,
    firstAt: null,
    lastAt: null,
    index: 1,
    peak: 0,
    worst: 0,
    lastNav: null,
    lastInvested: null,
    book: [],
    tradeDays: [],
    lastTradeAt: null,
    heldSnapshots: [],
    heldTrades: [],
  };
}

const byAt = <T extends { readonly at: number }>(x: T, y: T) => x.at - y.at;

/** The held and new records (log order) due by `asOf`, in time order (stable), and those still held. */
function split<T extends { readonly at: number }>(held: readonly T[], fresh: readonly T[], asOf: number) {
  const all = [...held, ...fresh];
  return { due: all.filter((r) => r.at <= asOf).sort(byAt), held: all.filter((r) => r.at > asOf) };
}

function valid(check: () => void): boolean {
  try {
    check();
    return true;
  } catch (error) {
    if (error instanceof InvalidInputError) return false;
    throw error;
  }
}

/**
 * The fold advanced to `asOf` by the agent's records after the ones it has seen (each kind in
 * log order), or undefined when they cannot be folded: an invalid record, an as-of earlier than
 * the fold's, a record earlier than one folded or a snapshot at a folded snapshot's time. The
 * caller then derives the vault from the whole book (`deriveVaultInput`), which refuses what it
 * refuses.
 */
export function advanceRiskFold(
  fold: RiskFold,
  snapshots: readonly RiskSnapshot[],
  trades: readonly RiskTrade[],
  asOf: number,
): RiskFold | undefined {
  if (asOf < fold.asOf) return undefined;
  const fine =
    snapshots.every((s, i) => Number.isFinite(s.at) && valid(() => checkSnapshot(s, `snapshots[${i}]`))) &&
    trades.every((t, i) => Number.isFinite(t.at) && valid(() => checkTrade(t, `trades[${i}]`)));
  if (!fine) return undefined;
  const s = split(fold.heldSnapshots, snapshots, asOf);
  const t = split(fold.heldTrades, trades, asOf);
  let lastAt = fold.lastAt ?? -Infinity;
  for (const snapshot of s.due) {
    if (snapshot.at <= lastAt) return undefined;
    lastAt = snapshot.at;
  }
  if (t.due.length > 0 && fold.lastTradeAt !== null && t.due[0]!.at < fold.lastTradeAt) return undefined;

  let { index, lastNav } = fold;
  const fall = { peak: fold.peak, worst: fold.worst };
  for (const snapshot of s.due) {
    index = nextIndex(index, lastNav, snapshot);
    fallStep(fall, index);
    lastNav = snapshot.nav;
  }
  const book: TradeBook = new Map(
    fold.book.map(([a, net, gross, lastPrice]) => [a, { net, gross, lastPrice }]),
  );
  const days = new Set(fold.tradeDays);
  for (const trade of t.due) {
    addTrade(book, trade);
    days.add(Math.floor(trade.at / SECONDS_PER_DAY));
  }
  const lastSnapshot = s.due[s.due.length - 1];
  return {
    asOf,
    points: fold.points + s.due.length,
    firstAt: fold.firstAt ?? s.due[0]?.at ?? null,
    lastAt: lastSnapshot?.at ?? fold.lastAt,
    index,
    ...fall,
    lastNav,
    lastInvested: lastSnapshot?.invested ?? fold.lastInvested,
    book: [...book].map(([a, e]) => [a, e.net, e.gross, e.lastPrice] as const),
    tradeDays: [...days].sort((x, y) => x - y),
    lastTradeAt: t.due[t.due.length - 1]?.at ?? fold.lastTradeAt,
    heldSnapshots: s.held,
    heldTrades: t.held,
  };
}

/** The vault, summarised, that `deriveVaultInput` then `summariseVault` give for the same records at the fold's as-of. */
export function riskFoldVault(fold: RiskFold, id: string, venueFacts: VenueFacts = {}): VaultSummary {
  const venue = checkVenue(venueFacts);
  const observed = fold.firstAt !== null;
  const holdings = bookHoldings(
    new Map(fold.book.map(([a, net, gross, lastPrice]) => [a, { net, gross, lastPrice }])),
  );
  return {
    id,
    tvl_usd: fold.lastNav ?? 0,
    holder_index:
      fold.firstAt === null
        ? null
        : { points: fold.points, first_at: fold.firstAt, last_at: fold.lastAt!, fall: fold.worst },
    holdings: observed ? holdings : null,
    liquidation_cushion: cushionOf(venue, fold.lastInvested ?? undefined, holdings),
    free_share: venue.free_share,
    largest_depositor_share: venue.largest_depositor_share,
    ...(observed
      ? observedDays(fold.firstAt!, fold.asOf, fold.tradeDays)
      : { days_observed: null, days_traded: null }),
  };
}

/** Refuses what JSON would not give back bit for bit: −0 and non-finite numbers (such a fold stays in memory). */
function exact(_key: string, value: unknown): unknown {
  if (typeof value === "number" && (!Number.isFinite(value) || Object.is(value, -0)))
    throw new RangeError("a risk fold holding −0 or a non-finite number is not stored");
  return value;
}

/** The fold as stored (JSON); throws RangeError for one JSON cannot carry exactly. */
export function riskFoldText(fold: RiskFold): string {
  return JSON.stringify(fold, exact);
}

/** A stored fold read back. */
export function parseRiskFoldText(text: string): RiskFold {
  return JSON.parse(text) as RiskFold;
}
