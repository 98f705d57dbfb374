import {
  advanceState,
  type AgentContext,
  AugurError,
  type AgentSeasonState,
  emptyState,
  manifestFrom,
  parseStateText,
  sealStateText,
  stateText,
} from "@augur/scorer";
import type { Store } from "../store/open";
import { readyFolds } from "../store/folds";
import type { NewScoreState } from "../store/queries/score-states";
import {
  AugurScorer,
  agentRows,
  type AugurSeasonScoring,
  NO_RECORDS,
  recordCounts,
  type RecordCounts,
} from "./augur-scorer";
import type { AgentInputs, Scorer, SeasonHeader, SeasonScoring } from "./seams";

/** A fold is stored again once the last stored one is this old (a restart folds at most this much again). */
export const STORE_EVERY_SECONDS = 24 * 3600;

/** One agent's fold of its season: the state and what it covers. */
interface Fold {
  readonly state: AgentSeasonState;
  /** The agent's records of each kind (log order) the state folded. */
  readonly consumed: RecordCounts;
  /** The latest snapshot time seen (unix s; −∞ before the first): a new one must be later. */
  readonly lastSnapshotAt: number;
  /** Snapshots seen (folded or held for a later hour): those after it are new. */
  readonly snapshotsSeen: number;
  readonly logSize: number;
  /** The seal of leaf logSize − 1 when the fold was made ("" for size 0). */
  readonly leafSeal: string;
  /** The as-of hour of the last fold of this agent stored (null: none yet). */
  readonly storedAsOf: number | null;
}

/** What `consumed` holds in a stored row. */
interface StoredCoverage {
  readonly consumed: RecordCounts;
  readonly lastSnapshotAt: number | null;
  readonly snapshotsSeen: number;
}

/** How the agents of the last season opened were scored. */
export interface IncrementalCounts {
  /** From the agent's fold, advanced by its new records only. */
  advanced: number;
  /** From a fold built from all its records (no usable fold). */
  rebuilt: number;
  /** By the from-scratch scorer (records no fold can take, or an unscorable agent). */
  fromScratch: number;
}

/**
 * augur-score/v1 scored incrementally (docs/augur-score-v1.md): each agent's season is a fold
 * (packages/scorer augur/incremental) advanced by the records anchored since the last hour, and
 * its manifest is the one the from-scratch AugurScorer writes, byte for byte. Folds are kept in
 * memory between hours and stored beside the scores (table score_states, at most once a day per
 * agent), so a restarted process reads them instead of rescoring every season from its first
 * snapshot. A fold is used only while the log leaf below it is still the store's. A record stamped
 * after the cycle's hour is held in the fold until an hour it counts in. An agent whose new records
 * a fold cannot take (one earlier than a record folded, one that counts now after a held one, one
 * the scorer refuses) is scored from scratch, exactly as AugurScorer scores it.
 */
export class IncrementalAugurScorer implements Scorer {
  private readonly reference = new AugurScorer();
  /** Per season: the log size prepared for, the seal of its last leaf, and the agents' folds. */
  private readonly seasons = new Map<
    string,
    { upTo: number; leafSeal: string; asOf: number; folds: Map<string, Fold> }
  >();
  /** How the last season opened was scored. */
  counts: IncrementalCounts = { advanced: 0, rebuilt: 0, fromScratch: 0 };

  async prepare(store: Pick<Store, "db" | "log">, header: SeasonHeader): Promise<void> {
    // A season not scored for two cycle hours (closed) is dropped, as the row cache drops its rows.
    for (const [id, season] of this.seasons)
      if (id !== header.seasonId && season.asOf < header.asOf - 2 * 3600) this.seasons.delete(id);
    const upTo = header.inputsLogSize ?? 0;
    const folds = this.seasons.get(header.seasonId)?.folds ?? new Map<string, Fold>();
    const agents = header.agents.map((a) => a.agentId);
    const leafSeal = await readyFolds(store, "score_states", header.seasonId, upTo, folds, agents, (row) => {
      const coverage = JSON.parse(row.consumed) as StoredCoverage;
      return {
        state: parseStateText(row.state),
        consumed: coverage.consumed,
        lastSnapshotAt: coverage.lastSnapshotAt ?? -Infinity,
        snapshotsSeen: coverage.snapshotsSeen,
        logSize: row.log_size,
        leafSeal: row.last_leaf_seal,
        storedAsOf: Number(row.created_at),
      };
    });
    this.seasons.set(header.seasonId, { upTo, leafSeal, asOf: header.asOf, folds });
  }

  openSeason(header: SeasonHeader): SeasonScoring {
    const reference = this.reference.openSeason(header);
    const upTo = header.inputsLogSize ?? 0;
    const prepared = this.seasons.get(header.seasonId);
    // Unprepared (no store to check folds against): every fold is built here and kept for nobody.
    const season =
      prepared?.upTo === upTo
        ? prepared
        : { upTo, leafSeal: "", asOf: header.asOf, folds: new Map<string, Fold>() };
    const counts: IncrementalCounts = { advanced: 0, rebuilt: 0, fromScratch: 0 };
    this.counts = counts;
    const changed: [string, Fold][] = [];
    return {
      scoreAgent: (agent) => {
        const prior = season.folds.get(agent.agentId);
        const covers = { logSize: upTo, leafSeal: season.leafSeal };
        // One context per agent and hour, for its fold and its manifest (none: an agent the season does not know).
        const context = agentContext(reference, agent.agentId);
        let fold = context && prior && advance(reference, context, agent, prior, covers);
        if (fold) counts.advanced += 1;
        else if (context && (fold = advance(reference, context, agent, undefined, covers)))
          counts.rebuilt += 1;
        if (!context || !fold) {
          season.folds.delete(agent.agentId);
          counts.fromScratch += 1;
          reference.scoreAgent(agent);
          return;
        }
        season.folds.set(agent.agentId, fold);
        if (fold.state !== prior?.state) changed.push([agent.agentId, fold]);
        reference.add(manifestFrom(fold.state, context));
      },
      finish: () => reference.finish(),
      stateRows: (createdAt) => {
        if (prepared !== season) return [];
        const rows: NewScoreState[] = [];
        for (const [agentId, fold] of changed) {
          if (fold.storedAsOf !== null && header.asOf - fold.storedAsOf < STORE_EVERY_SECONDS) continue;
          const coverage: StoredCoverage = {
            consumed: fold.consumed,
            lastSnapshotAt: Number.isFinite(fold.lastSnapshotAt) ? fold.lastSnapshotAt : null,
            snapshotsSeen: fold.snapshotsSeen,
          };
          let text: string;
          try {
            text = stateText(fold.state);
          } catch (error) {
            if (error instanceof AugurError) continue; // kept in memory only: a restart rebuilds it
            throw error;
          }
          rows.push({
            agent_id: agentId,
            season_id: header.seasonId,
            log_size: fold.logSize,
            last_leaf_seal: fold.leafSeal,
            consumed: JSON.stringify(coverage),
            state: text,
            state_seal: sealStateText(text),
            created_at: createdAt,
          });
          season.folds.set(agentId, { ...fold, storedAsOf: header.asOf });
        }
        return rows;
      },
    };
  }
}

/** The agent's context in the season being scored, or undefined when the scorer refuses it (AugurError). */
function agentContext(reference: AugurSeasonScoring, agentId: string): AgentContext | undefined {
  try {
    return reference.scorer.agentContext(agentId);
  } catch (error) {
    if (error instanceof AugurError) return undefined;
    throw error;
  }
}

/**
 * The agent's fold advanced by its records after `prior` (all of them without one), or undefined
 * when they cannot be folded: fewer records than folded (not this log), a snapshot not later than
 * the last one folded (the scorer's one-per-moment rule spans batches), or a record the scorer
 * refuses or cannot append (AugurError).
 */
function advance(
  reference: AugurSeasonScoring,
  context: AgentContext,
  agent: AgentInputs,
  prior: Fold | undefined,
  covers: Pick<Fold, "logSize" | "leafSeal">,
): Fold | undefined {
  const from = prior?.consumed ?? NO_RECORDS;
  const now = recordCounts(agent);
  const kinds = Object.keys(now) as (keyof RecordCounts)[];
  if (kinds.some((k) => now[k] < from[k])) return undefined;
  if (prior && kinds.every((k) => now[k] === from[k])) return { ...prior, ...covers };
  let lastSnapshotAt = prior?.lastSnapshotAt ?? -Infinity;
  const times = agent.records.snapshots.at;
  const seen = prior?.snapshotsSeen ?? 0;
  for (let i = seen; i < now.snapshots; i++) if (times[i]! <= lastSnapshotAt) return undefined;
  for (let i = seen; i < now.snapshots; i++) lastSnapshotAt = Math.max(lastSnapshotAt, times[i]!);
  try {
    const batch = reference.validate(agent.agentId, agentRows(agent, from));
    const start = prior?.state ?? emptyState(agent.agentId, context.header.season.id);
    const { state, taken } = advanceState(start, batch, context.bounds);
    // Rows held for a later clock (after the hour) are folded, first, at a later hour.
    const consumed = {
      snapshots: from.snapshots + taken.snapshots,
      decisions: from.decisions + taken.decisions,
      trades: from.trades + taken.trades,
      calls: from.calls + taken.calls,
    };
    return {
      state,
      consumed,
      lastSnapshotAt,
      snapshotsSeen: now.snapshots,
      ...covers,
      storedAsOf: prior?.storedAsOf ?? null,
    };
  } catch (error) {
    if (error instanceof AugurError) return undefined;
    throw error;
  }
}

/** The scoring paths `augur cycle --scoring` chooses between. */
export const SCORING_MODES = ["incremental", "from-scratch"] as const;
export type ScoringMode = (typeof SCORING_MODES)[number];

const perStore = new WeakMap<object, IncrementalAugurScorer>();

/**
 * The cycle's scorer: the process's incremental scorer of this store (its folds live as long as
 * the store is open), or the from-scratch AugurScorer, the reference, one flag away.
 */
export function cycleScorer(store: Pick<Store, "db">, mode: ScoringMode = "incremental"): Scorer {
  if (mode === "from-scratch") return new AugurScorer();
  let scorer = perStore.get(store.db);
  if (!scorer) perStore.set(store.db, (scorer = new IncrementalAugurScorer()));
  return scorer;
}
