import type { Hex32 } from "../../hex";
import { EMPTY_FRONTIER, type MerkleFrontier } from "../../merkle/root";
import { sealText, UnsealableRecordError } from "../../seal";
import { float64Text, parseFloat64Text } from "./float64-text";

/**
 * One agent's season folded up to some point of its inputs: everything augur-score/v1 measures,
 * carried as running values so the next hour costs only its own records (see advance.ts), and
 * turned into the manifest the from-scratch scorer writes (manifest-from.ts). A plain JSON value,
 * stored as its JSON text with the returns as base64 of their bits (`stateText`), whose sha256
 * (`sealStateText`) says which fold a row holds.
 *
 * Two lists grow with the season, because the published arithmetic cannot be folded in O(1)
 * without changing its bits: the returns (sigma is the two-pass population deviation around the
 * final mean) and each trade's holding time (summed from the last trade back to the first).
 */
export interface AgentSeasonState {
  readonly version: typeof STATE_VERSION;
  readonly agent: string;
  readonly season_id: string;
  readonly snapshots: SnapshotFold;
  readonly decisions: DecisionFold;
  readonly trades: TradeFold;
  readonly calls: CallFold;
}

/** v2: the stored text carries the returns as `float64Text`; v1 (before session 10) as JSON numbers. */
export const STATE_VERSION = "augur-incremental/v2";
const STATE_VERSION_V1 = "augur-incremental/v1";

/** Snapshots in time order: their Merkle frontier and the return index measures. */
export interface SnapshotFold {
  readonly frontier: MerkleFrontier;
  readonly first_seal: Hex32 | null;
  readonly last_seal: Hex32 | null;
  /** Times of the first and last snapshot (ms); null before the first. */
  readonly first_ms: number | null;
  readonly last_ms: number | null;
  readonly last_nav: number | null;
  /** Return index I_i, its running peak and the deepest fall from it so far. */
  readonly index: number;
  readonly peak: number;
  readonly max_drawdown: number;
  /** Σ r_i left to right, and every r_i (for sigma's second pass). */
  readonly return_sum: number;
  readonly returns: readonly number[];
  /** Σ invested fraction, left to right. */
  readonly invested_sum: number;
}

/** Decisions in the order given. */
export interface DecisionFold {
  readonly frontier: MerkleFrontier;
  readonly own_count: number;
}

/** Trades in time order (ties in the order given): the DNA accumulators. */
export interface TradeFold {
  readonly frontier: MerkleFrontier;
  readonly last_ms: number | null;
  readonly buy_notional: number;
  readonly sell_notional: number;
  readonly alignment_sum: number;
  readonly alignment_count: number;
  /** [asset, price of its latest trade], by asset. */
  readonly last_price: readonly (readonly [string, number])[];
  /** Each trade's hours to the next opposite-side trade of its asset; null while there is none. */
  readonly holds: readonly (number | null)[];
  /** [asset, side, [index, ms] of each of its trades still waiting for an opposite-side trade]. */
  readonly open: readonly (readonly [string, "buy" | "sell", readonly (readonly [number, number])[]])[];
}

/** Calls resolved in the season (voids included) in the order given. */
export interface CallFold {
  readonly frontier: MerkleFrontier;
  /** Hits and misses, and Σ (confidence − hit)² over them, left to right. */
  readonly resolved: number;
  readonly brier_sum: number;
}

/** The fold of no records at all. */
export function emptyState(agent: string, seasonId: string): AgentSeasonState {
  return {
    version: STATE_VERSION,
    agent,
    season_id: seasonId,
    snapshots: {
      frontier: EMPTY_FRONTIER,
      first_seal: null,
      last_seal: null,
      first_ms: null,
      last_ms: null,
      last_nav: null,
      index: 1,
      peak: 1,
      max_drawdown: 0,
      return_sum: 0,
      returns: [],
      invested_sum: 0,
    },
    decisions: { frontier: EMPTY_FRONTIER, own_count: 0 },
    trades: {
      frontier: EMPTY_FRONTIER,
      last_ms: null,
      buy_notional: 0,
      sell_notional: 0,
      alignment_sum: 0,
      alignment_count: 0,
      last_price: [],
      holds: [],
      open: [],
    },
    calls: { frontier: EMPTY_FRONTIER, resolved: 0, brier_sum: 0 },
  };
}

/**
 * The state as stored: its JSON text, keys in the order the fold writes them, the returns (the one
 * list that grows every hour) as the base64 of their float64 bits (`float64Text`: half the text of
 * their decimals, read back without parsing them). JSON carries every other finite double exactly
 * (shortest round-trip form); a state holding NaN or ±Infinity there is refused
 * (UnsealableRecordError), so only a state that reads back as itself is stored. Not RFC 8785:
 * its sums may be integers beyond 2^53, which a sealed record (I-JSON) may not hold.
 */
export function stateText(state: AgentSeasonState): string {
  const stored = {
    ...state,
    version: STATE_VERSION,
    snapshots: { ...state.snapshots, returns: float64Text(state.snapshots.returns) },
  };
  return JSON.stringify(stored, (key, value: unknown) => {
    if (typeof value === "number" && !Number.isFinite(value))
      throw new UnsealableRecordError(key, `is ${value}, which JSON cannot carry`);
    return value;
  });
}

/**
 * A state read back from its stored text (`stateText`, or a v1 text with the returns as JSON
 * numbers), its frontiers frozen like the builder's, so a list that gets no new rows keeps its
 * root computed once (manifest-from.ts). RangeError for a text of another version.
 */
export function parseStateText(text: string): AgentSeasonState {
  const stored = JSON.parse(text) as Omit<AgentSeasonState, "version"> & { version: string };
  const snapshots = stored.snapshots as { returns: readonly number[] | string };
  if (stored.version === STATE_VERSION && typeof snapshots.returns === "string")
    snapshots.returns = parseFloat64Text(snapshots.returns);
  else if (stored.version === STATE_VERSION_V1 && Array.isArray(snapshots.returns))
    stored.version = STATE_VERSION;
  else throw new RangeError(`not a stored fold state of ${STATE_VERSION} or ${STATE_VERSION_V1}`);
  const state = stored as AgentSeasonState;
  for (const fold of [state.snapshots, state.decisions, state.trades, state.calls]) {
    Object.freeze(fold.frontier.nodes);
    Object.freeze(fold.frontier);
  }
  return state;
}

/** sha256 of a state's stored text: what a stored row's `state_seal` checks it against. */
export function sealStateText(text: string): Hex32 {
  return sealText(text);
}
