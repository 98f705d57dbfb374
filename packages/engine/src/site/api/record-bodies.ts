/**
 * Reads the stored record bodies the site's views need, in the units people read: USDG for NAV
 * and flow, a fraction for invested, a plain number for prices. Signed records are
 * `{ format, type, domain, message }`; call records (written by the chain indexer) carry their
 * fields at the top level.
 */
const USDG_UNITS = 1e6;
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
  readonly asset: string;
  readonly window: number;
  readonly direction: "up" | "down";
  readonly confidenceBps: number;
  readonly revealedAt: number;
  readonly closesAt: number;
  readonly entryPrice: number | null;
  readonly exitPrice: number | null;
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
  return {
    at: num(m.takenAt),
    nav: num(m.nav) / USDG_UNITS,
    flow: num(m.flow) / USDG_UNITS,
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

const OUTCOMES: readonly CallOutcome[] = ["hit", "miss", "void", "open"];

export function callPoint(body: string, seal: string): CallPoint {
  const m = messageOf(body);
  const outcome = OUTCOMES.includes(m.outcome as CallOutcome) ? (m.outcome as CallOutcome) : "open";
  return {
    callId: String(m.callId ?? ""),
    asset: String(m.asset ?? ""),
    window: num(m.window),
    direction: m.direction === "down" ? "down" : "up",
    confidenceBps: num(m.confidenceBps),
    revealedAt: num(m.revealedAt),
    closesAt: num(m.closesAt),
    entryPrice: optionalPrice(m.entryPrice),
    exitPrice: optionalPrice(m.exitPrice),
    outcome,
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
