/**
 * Reads the stored record bodies the site's views need, in the units people read: USDG for NAV
 * and flow (each snapshot in its own stated decimals, `usdg.ts`), a fraction for invested, a plain number for prices. Signed records are
 * `{ format, type, domain, message }`; call records are the chain indexer's `augur-call/v1`
 * bodies (`indexer/calls.ts`), read by `callTerms` (the one reader the referee uses too).
 */
import { callTerms } from "./call-terms";
import { usdgDecimalsOf, usdgNumber } from "./usdg";

const PRICE_UNITS = 1e18;

export interface SnapshotPoint {
  readonly at: number;
  readonly nav: number;
  readonly flow: number;
  readonly invested: number;
  readonly seal: string;
}

export interface TradePoint {
  readonly at: number;
  readonly asset: string;
  readonly side: "buy" | "sell";
  readonly quantity: number;
  readonly price: number;
}

export interface DecisionPoint {
  readonly at: number;
  readonly source: string;
  readonly asset: string;
  readonly action: string;
}

export type CallOutcome = "hit" | "miss" | "void" | "open";

export interface CallPoint {
  readonly callId: string;
  /** The stock's address; "" for a call that expired unrevealed (its asset was never said). */
  readonly asset: string;
  /** Seconds; 0 when expired unrevealed. */
  readonly window: number;
  /** null when expired unrevealed. */
  readonly direction: "up" | "down" | null;
  readonly confidenceBps: number;
  /** The reveal's block time (= closesAt − window); the resolution time for an expired call. */
  readonly revealedAt: number;
  readonly closesAt: number;
  readonly resolvedAt: number;
  /** Never revealed: the ledger counted it as a miss when its reveal time ran out. */
  readonly expired: boolean;
  readonly entryPrice: number | null;
  readonly exitPrice: number | null;
  /** "open" until the call's outcome is sealed (a commit still hidden, or a reveal not yet closed). */
  readonly outcome: CallOutcome;
  readonly seal: string;
}

export type Fields = Record<string, unknown>;

function messageOf(body: string): Fields {
  const parsed = JSON.parse(body) as Fields;
  return (parsed.message as Fields | undefined) ?? parsed;
}

const num = (v: unknown): number => Number(v);
const optionalPrice = (v: unknown): number | null =>
  v === null || v === undefined ? null : Number(v) / PRICE_UNITS;

export function snapshotPoint(body: string, seal: string): SnapshotPoint {
  return snapshotPointOf(messageOf(body), seal);
}

/** The same from a parsed message (the cycle's row cache parses each body once for all its readers). */
export function snapshotPointOf(m: Fields, seal: string): SnapshotPoint {
  const decimals = usdgDecimalsOf(m);
  return {
    at: num(m.takenAt),
    nav: usdgNumber(m.nav, decimals),
    flow: usdgNumber(m.flow, decimals),
    invested: num(m.investedBps) / 10_000,
    seal,
  };
}

export function tradePoint(body: string): TradePoint {
  return tradePointOf(messageOf(body));
}

export function tradePointOf(m: Fields): TradePoint {
  return {
    at: num(m.executedAt),
    asset: String(m.asset),
    side: m.side === "sell" ? "sell" : "buy",
    quantity: num(m.quantity) / 1e18,
    price: num(m.price) / PRICE_UNITS,
  };
}

export function decisionPoint(body: string): DecisionPoint {
  return decisionPointOf(messageOf(body));
}

export function decisionPointOf(m: Fields): DecisionPoint {
  return { at: num(m.decidedAt), source: String(m.source), asset: String(m.asset), action: String(m.action) };
}

/** A sealed call record (the chain indexer's, any phase; see `CALL_FORMATS`) as the site shows it. */
export function callPoint(body: string, seal: string): CallPoint {
  const t = callTerms(body);
  return {
    callId: t.callId,
    asset: t.asset,
    window: t.window,
    direction: t.revealed ? t.direction : null,
    confidenceBps: t.confidenceBps,
    revealedAt: t.revealedAt,
    closesAt: t.closesAt,
    resolvedAt: t.resolvedAt,
    expired: !t.revealed && t.phase === "resolved",
    entryPrice: optionalPrice(t.entryPrice),
    exitPrice: optionalPrice(t.exitPrice),
    outcome: t.outcome,
    seal,
  };
}

/** Current run of consecutive hits and the longest run, over resolved calls in time order (voids skipped). */
export function streaks(calls: readonly CallPoint[]): { streak: number; bestStreak: number } {
  let streak = 0;
  let bestStreak = 0;
  for (const c of [...calls].sort((a, b) => a.closesAt - b.closesAt)) {
    if (c.outcome === "hit") bestStreak = Math.max(bestStreak, ++streak);
    else if (c.outcome === "miss") streak = 0;
  }
  return { streak, bestStreak };
}
