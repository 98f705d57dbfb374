import { type Digest, digestHex, sha256Digest } from "../../digest";
import { AugurError } from "../../errors";
import { MerkleRootBuilder } from "../../merkle/root";
import { MS_PER_HOUR } from "../dna";
import { decimalValue, parseTime } from "../input";
import { rowCanonicalJson } from "../input-roots";
import type { SeasonAgentRecords } from "../season";
import { snapshotCanonicalJson } from "../snapshot-seal";
import { frontierOf } from "./roots";
import type { AgentSeasonState, CallFold, DecisionFold, SnapshotFold, TradeFold } from "./state";

/** The season's window in ms: rows count inside [start, clock]; clock = min(as_of, season end). */
export interface SeasonBounds {
  readonly startMs: number;
  readonly clockMs: number;
  readonly endMs: number;
}

/**
 * The new records cannot be appended to the fold and give what the from-scratch scorer gives
 * (a row earlier than one already folded, or one inside the season but after the clock, which the
 * from-scratch scorer would count later at its place in the list). The caller rescores from scratch.
 */
export class NotAdvanceableError extends AugurError {
  override readonly name = "NotAdvanceableError";
  constructor(list: string, problem: string, details: Record<string, unknown> = {}) {
    super("NOT_ADVANCEABLE", `${list}: ${problem}`, { list, ...details });
  }
}

type Sided = "buy" | "sell";

/** How many rows of each list an advance folded (a prefix of each); the rest wait for a later clock. */
export interface RowsTaken {
  readonly snapshots: number;
  readonly decisions: number;
  readonly trades: number;
  readonly calls: number;
}

/**
 * The state after appending one batch of an agent's records (typically one hour's) to those it
 * already folded. Equal to folding every record from scratch, provided that, in the scorer's
 * orders, the batch comes after what was folded: snapshots and trades no earlier than the last one
 * folded (ties follow it, as the scorer's stable sort puts them), decisions and calls after the
 * earlier ones in the order given. A row outside the season is skipped like the scorer skips it.
 *
 * A row inside the season but after the clock counts only at a later hour: each list is folded up
 * to its first such row, and `taken` says how many rows of each list were folded; the rest are
 * to be given again, first, at the next advance. A row after a held one that counts now (the
 * scorer would put it before the held one) throws NotAdvanceableError, like a row earlier than
 * the last one folded. Pure: `state` is left as it was.
 */
export function advanceState(
  state: AgentSeasonState,
  records: SeasonAgentRecords,
  bounds: SeasonBounds,
): { readonly state: AgentSeasonState; readonly taken: RowsTaken } {
  const snapshotRows = upToHeld(records.snapshots, (r) => r.at, bounds, "snapshots");
  const tradeRows = upToHeld(records.trades, (r) => r.at, bounds, "trades");
  const decisions = upToHeld(records.decisions, (r) => r.at, bounds, "decisions");
  const calls = upToHeld(records.calls, (r) => r.resolved_at, bounds, "calls");
  const snapshots = inTimeOrder(snapshotRows, "snapshots", state.snapshots.last_ms);
  const trades = inTimeOrder(tradeRows, "trades", state.trades.last_ms);
  return {
    state: {
      ...state,
      snapshots: foldSnapshots(state.snapshots, snapshots),
      decisions: foldDecisions(state.decisions, inSeason(decisions)),
      trades: foldTrades(state.trades, trades),
      calls: foldCalls(state.calls, inSeason(calls)),
    },
    taken: {
      snapshots: snapshotRows.length,
      decisions: decisions.length,
      trades: tradeRows.length,
      calls: calls.length,
    },
  };
}

interface TimedRows<T> {
  readonly rows: readonly T[];
  readonly ms: readonly number[];
}

/** A row, its time and whether it counts (inside [start, clock]; false: outside the season). */
interface Timed<T> {
  readonly row: T;
  readonly ms: number;
  readonly counts: boolean;
}

/**
 * The rows before the first one inside the season but after the clock (held for a later hour),
 * each with its time; refused if a row after a held one counts now.
 */
function upToHeld<T>(
  rows: readonly T[],
  at: (row: T) => string,
  bounds: SeasonBounds,
  list: string,
): Timed<T>[] {
  const taken: Timed<T>[] = [];
  let held = -1;
  for (let k = 0; k < rows.length; k++) {
    const row = rows[k]!;
    const ms = parseTime(at(row), `${list}.at`);
    const inside = ms >= bounds.startMs && ms <= bounds.endMs;
    if (held < 0 && inside && ms > bounds.clockMs) held = k;
    if (held < 0) taken.push({ row, ms, counts: inside });
    else if (inside && ms <= bounds.clockMs)
      throw new NotAdvanceableError(list, "a row after one held for a later hour counts now", {
        ms,
        held: k,
      });
  }
  return taken;
}

function inSeason<T>(rows: readonly Timed<T>[]): T[] {
  return rows.filter((r) => r.counts).map((r) => r.row);
}

/** The rows that count, in time order (stable), none earlier than `after`. */
function inTimeOrder<T>(rows: readonly Timed<T>[], list: string, after: number | null): TimedRows<T> {
  const kept = rows.map((r, k) => ({ ...r, k })).filter((r) => r.counts);
  kept.sort((a, b) => a.ms - b.ms || a.k - b.k);
  if (after !== null && kept.length > 0 && kept[0]!.ms < after)
    throw new NotAdvanceableError(list, "a row is earlier than the last one folded", {
      ms: kept[0]!.ms,
      after,
    });
  return { rows: kept.map((e) => e.row), ms: kept.map((e) => e.ms) };
}

/** A row's leaf, as inputRoot adds it: its given seal (0x + 64 hex digits), else sha256 of its canonical JSON. */
function leafOf<T extends { readonly seal?: string }>(
  root: MerkleRootBuilder,
  row: T,
  canonical: (row: T) => string,
  list: string,
): void {
  if (row.seal !== undefined) root.addHex(row.seal, list);
  else root.addDigest(sha256Digest(canonical(row)));
}

function foldSnapshots(
  fold: SnapshotFold,
  batch: TimedRows<SeasonAgentRecords["snapshots"][number]>,
): SnapshotFold {
  if (batch.rows.length === 0) return fold;
  const root = MerkleRootBuilder.fromFrontier(fold.frontier);
  let { first_seal, first_ms, last_nav, index, peak, max_drawdown, return_sum, invested_sum } = fold;
  let last_seal = fold.last_seal;
  const returns = fold.returns.slice();
  // Only the first and last seals are named in hex; the rest go into the root as they come.
  let lastDigest: Digest | null = null;
  batch.rows.forEach((row, j) => {
    if (row.seal !== undefined) {
      root.addHex(row.seal, "snapshots (seal)");
      last_seal = row.seal;
      lastDigest = null;
    } else {
      lastDigest = sha256Digest(snapshotCanonicalJson(row));
      root.addDigest(lastDigest);
    }
    const nav = decimalValue(row.nav);
    // The same operations in the same order as measureReturns, one snapshot at a time.
    if (last_nav === null) {
      first_seal = row.seal ?? digestHex(lastDigest!);
      first_ms = batch.ms[j]!;
    } else {
      const r = (nav - decimalValue(row.flow)) / last_nav - 1;
      returns.push(r);
      return_sum += r;
      index *= 1 + r;
      if (index > peak) peak = index;
      const drawdown = (peak - index) / peak;
      if (drawdown > max_drawdown) max_drawdown = drawdown;
    }
    invested_sum += row.invested;
    last_nav = nav;
  });
  if (lastDigest !== null) last_seal = digestHex(lastDigest);
  return {
    frontier: frontierOf(root),
    first_seal,
    last_seal,
    first_ms,
    last_ms: batch.ms[batch.ms.length - 1]!,
    last_nav,
    index,
    peak,
    max_drawdown,
    return_sum,
    returns,
    invested_sum,
  };
}

function foldDecisions(fold: DecisionFold, rows: SeasonAgentRecords["decisions"]): DecisionFold {
  if (rows.length === 0) return fold;
  const root = MerkleRootBuilder.fromFrontier(fold.frontier);
  let own = fold.own_count;
  for (const row of rows) {
    leafOf(root, row, rowCanonicalJson.decision, "decisions (seal)");
    if (row.decider === "agent") own += 1;
  }
  return { frontier: frontierOf(root), own_count: own };
}

function foldCalls(fold: CallFold, rows: SeasonAgentRecords["calls"]): CallFold {
  if (rows.length === 0) return fold;
  const root = MerkleRootBuilder.fromFrontier(fold.frontier);
  let { resolved, brier_sum } = fold;
  for (const row of rows) {
    leafOf(root, row, rowCanonicalJson.call, "calls (seal)");
    if (row.outcome === "void") continue;
    const miss = row.confidence - (row.outcome === "hit" ? 1 : 0);
    brier_sum += miss * miss;
    resolved += 1;
  }
  return { frontier: frontierOf(root), resolved, brier_sum };
}

function foldTrades(fold: TradeFold, batch: TimedRows<SeasonAgentRecords["trades"][number]>): TradeFold {
  if (batch.rows.length === 0) return fold;
  const root = MerkleRootBuilder.fromFrontier(fold.frontier);
  let { buy_notional, sell_notional, alignment_sum, alignment_count } = fold;
  const lastPrice = new Map(fold.last_price);
  const holds = fold.holds.slice();
  // Trades still waiting for the next opposite-side trade of their asset: [index, ms].
  const open = new Map<string, Record<Sided, [number, number][]>>();
  const openOf = (asset: string) => {
    let sides = open.get(asset);
    if (sides === undefined) open.set(asset, (sides = { buy: [], sell: [] }));
    return sides;
  };
  for (const [asset, side, waiting] of fold.open) openOf(asset)[side] = waiting.map(([i, ms]) => [i, ms]);
  batch.rows.forEach((row, j) => {
    leafOf(root, row, rowCanonicalJson.trade, "trades (seal)");
    const ms = batch.ms[j]!;
    const buy = row.side === "buy";
    const price = decimalValue(row.price);
    // As measureDna's forward pass: notional per side, alignment with the asset's last move.
    const notional = decimalValue(row.quantity) * price;
    if (buy) buy_notional += notional;
    else sell_notional += notional;
    const previous = lastPrice.get(row.asset);
    if (previous !== undefined && price !== previous) {
      alignment_sum += price > previous === buy ? 1 : -1;
      alignment_count += 1;
    }
    lastPrice.set(row.asset, price);
    // This trade closes every earlier open trade of the other side in its asset.
    const sides = openOf(row.asset);
    const closing = buy ? "sell" : "buy";
    for (const [i, openedMs] of sides[closing]) holds[i] = (ms - openedMs) / MS_PER_HOUR;
    sides[closing] = [];
    sides[buy ? "buy" : "sell"].push([holds.length, ms]);
    holds.push(null);
  });
  const byAsset = <V>(entries: Iterable<[string, V]>) =>
    [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    frontier: frontierOf(root),
    last_ms: batch.ms[batch.ms.length - 1]!,
    buy_notional,
    sell_notional,
    alignment_sum,
    alignment_count,
    last_price: byAsset(lastPrice),
    holds,
    open: byAsset(open).flatMap(([asset, sides]) =>
      (["buy", "sell"] as const)
        .filter((side) => sides[side].length > 0)
        .map((side) => [asset, side, sides[side]] as const),
    ),
  };
}
