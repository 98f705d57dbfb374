import type { Style } from "./formula";
import type { Hex32 } from "../hex";

/** A decimal number: a JSON number, or a decimal string such as "1023.50". */
export type Decimal = number | string;

export interface SeasonInput {
  readonly season: { readonly id: string; readonly start: string; readonly end: string };
  readonly as_of: string;
  readonly agents: readonly AgentInput[];
  readonly snapshots: readonly SnapshotInput[];
  readonly decisions: readonly DecisionInput[];
  readonly trades: readonly TradeInput[];
  readonly calls: readonly CallInput[];
  readonly prior_scores: readonly PriorScoreInput[];
  /** Optional: the log size these rows were read below (a version-2 manifest names it). */
  readonly inputs_log_size?: number | null;
}

export interface AgentInput {
  readonly id: string;
  readonly creator: string;
  readonly style: Style;
  readonly active: boolean;
}

/** One portfolio snapshot; sealed as given, so its seal matches the record the engine sealed. */
export interface SnapshotInput {
  readonly agent: string;
  readonly at: string;
  readonly nav: Decimal;
  /** Net deposits minus withdrawals since the agent's previous snapshot. */
  readonly flow: Decimal;
  /** Invested fraction of NAV, in [0, 1]. */
  readonly invested: number;
  /**
   * Optional: the seal of the sealed record this row was read from. The manifest then names it
   * (so a verifier finds it in the anchored log); without it, the row itself is sealed.
   */
  readonly seal?: Hex32;
}

export const DECIDERS = ["agent", "protective_exit", "system_hold"] as const;
export type Decider = (typeof DECIDERS)[number];

export interface DecisionInput {
  readonly agent: string;
  readonly at: string;
  readonly decider: Decider;
  readonly asset: string;
  readonly action: string;
  /** Optional: the seal of the sealed record this row was read from (else the row itself is sealed). */
  readonly seal?: Hex32;
}

export interface TradeInput {
  readonly agent: string;
  readonly at: string;
  readonly asset: string;
  readonly side: "buy" | "sell";
  readonly quantity: Decimal;
  readonly price: Decimal;
  /** Optional: the seal of the sealed record this row was read from (else the row itself is sealed). */
  readonly seal?: Hex32;
}

export interface CallInput {
  readonly agent: string;
  readonly resolved_at: string;
  /** Stated probability, in [0, 1], that the call is right. */
  readonly confidence: number;
  readonly outcome: "hit" | "miss" | "void";
  /** Optional: the seal of the sealed record this row was read from (else the row itself is sealed). */
  readonly seal?: Hex32;
}

/** A score row sealed earlier (any season); feeds the creator term of the creator's other agents. */
export interface PriorScoreInput {
  readonly agent: string;
  readonly season_id: string;
  readonly performance: number;
  readonly seal: Hex32;
  readonly sealed_at: string;
}
