import type { Hex32 } from "@augur/scorer";
import type { AgentRecords } from "../store/agent-records";
import type { Store } from "../store/open";
import type { RowsStart } from "../store/season-rows";
import type { NewScoreState } from "../store/queries/score-states";

/** A registered agent of the season whose registration is anchored. */
export interface AgentSummary {
  readonly agentId: string;
  readonly creator: string;
  readonly style: string;
  readonly registrationSeal: Hex32;
  /** When the agent retired (an anchored, signed Retirement at or before the as-of time); else absent. */
  readonly retiredAt?: number;
}

export interface AgentInputs extends AgentSummary {
  /**
   * The agent's anchored records of the season (snapshots, decisions, trades, calls), each kind
   * in log order, decoded (the cycle keeps them between hours; a scorer must not change them).
   */
  readonly records: AgentRecords;
}

/** An anchored score row, offered as a creator input (its seal is named in the manifest). */
export interface PriorScore {
  readonly agentId: string;
  readonly seasonId: string;
  readonly creator: string;
  readonly asOf: number;
  readonly seal: Hex32;
  readonly terms: Readonly<Record<string, unknown>>;
}

/** A season's window, unix seconds (the close is the earlier of its end and its closing). */
export interface SeasonBounds {
  readonly startsAt: number;
  readonly endsAt: number;
}

/** What scoring a season needs besides each agent's own records. */
export interface SeasonHeader {
  readonly seasonId: string;
  readonly season: SeasonBounds;
  readonly asOf: number;
  readonly agents: readonly AgentSummary[];
  /** The latest anchored score of every agent of the creators above, any season. */
  readonly priorScores: readonly PriorScore[];
  /** The log size the agents' records were read below (a version-2 manifest names it). */
  readonly inputsLogSize?: number;
}

/** One agent's outcome: a score, or null with a reason code; the manifest is what gets sealed. */
export interface ScoreOutcome {
  readonly agentId: string;
  readonly formula: string;
  readonly score: number | null;
  readonly reason: string | null;
  readonly rank: number | null;
  readonly terms: Readonly<Record<string, unknown>>;
  readonly manifest: Readonly<Record<string, unknown>>;
  /**
   * Optional: the manifest's canonical JSON and the scorer's seal of it, when the scorer built them:
   * the score step stores that text and refuses a stored seal other than this one.
   */
  readonly sealed?: { readonly text: string; readonly seal: Hex32 };
}

/** One season being scored: agents one at a time (their records streamed from the store), then ranks. */
export interface SeasonScoring {
  scoreAgent(agent: AgentInputs): void;
  /**
   * Optional: whether the agent's records, which start after its first (`records.complete` false),
   * are not enough: the caller then gives them whole. Without it, such records are always given whole.
   */
  needsHistory?(agent: AgentInputs): boolean;
  /** Every agent scored so far, ranked. */
  finish(): readonly ScoreOutcome[];
  /** Optional: what the scorer carries to the next hour, stored with the scores (the incremental folds). */
  stateRows?(createdAt: number): readonly NewScoreState[];
}

/**
 * Decides every number of a season's scores: packages/scorer behind this seam. The
 * engine only loads anchored inputs and stores what comes back; agents are fed one at a time, so
 * a scorer only ever holds one agent's records in its own vocabulary (the engine's decoded rows
 * are compact columns, see agent-records.ts).
 */
export interface Scorer {
  openSeason(header: SeasonHeader): SeasonScoring;
  /** Optional: reads what the scorer carries between hours before `openSeason` (the incremental folds). */
  prepare?(store: Pick<Store, "db" | "log">, header: SeasonHeader): Promise<void>;
  /** Optional, after `prepare`: where the season's rows may start when none are read yet (a restart). */
  rowsStart?(seasonId: string): RowsStart | undefined;
}
