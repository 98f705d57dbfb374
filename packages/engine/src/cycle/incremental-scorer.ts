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
  UnsealableRecordError,
} from "@augur/scorer";
import type { Store } from "../store/open";
import { foldDue, readyFolds } from "../store/folds";
import { PartialRecordsError } from "../store/agent-records";
import type { NewScoreState } from "../store/queries/score-states";
import type { RowsStart } from "../store/season-rows";
import {
  AugurScorer,
  agentRows,
  type AugurSeasonScoring,
  NO_RECORDS,
  type RecordCounts,
} from "./augur-scorer";
import type { AgentInputs, Scorer, SeasonHeader, SeasonScoring } from "./seams";

/** An agent's records in the scorer's input vocabulary (`agentRows`), before validation. */
type AgentRows = ReturnType<typeof agentRows>;

const NO_ROWS: AgentRows = { snapshots: [], decisions: [], trades: [], calls: [] };

/** One agent's fold of its season: the state and what it covers. */
interface Fold {
  readonly state: AgentSeasonState;
  /** The agent's records of each kind (log order) the state folded. */
  readonly consumed: RecordCounts;
  /** The agent's records of each kind seen (folded or held): those after them are new. */
  readonly seen: RecordCounts;
  /** The records seen but not folded, stamped after the hour they were read in: folded first at a later hour. */
  readonly held: AgentRows;
  /** The latest snapshot time seen (unix s; −∞ before the first): a new one must be later. */
  readonly lastSnapshotAt: number;
  readonly logSize: number;
  /** The seal of leaf logSize − 1 when the fold was made ("" for size 0). */
  readonly leafSeal: string;
  /** The as-of hour of the last fold of this agent stored (null: none yet). */
  readonly storedAsOf: number | null;
}

/**
 * What `consumed` holds in a stored row. `seen` counts the agent's records below the row's log
 * size, so a restart reads only the records after it; `held` carries the records seen but not yet
 * folded. A row without `seen` (stored before session 8) is not used: that fold is rebuilt.
 */
interface StoredCoverage {
  readonly consumed: RecordCounts;
  readonly lastSnapshotAt: number | null;
  readonly seen?: RecordCounts;
  readonly held?: AgentRows;
}

/** An agent scored: from a fold (`rebuilt` when built from all its records), from scratch, or not yet (its whole history is needed). */
type Attempt =
  | { readonly fold: Fold; readonly rebuilt: boolean; readonly context: AgentContext }
  | "from-scratch"
  | "history";

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
 * memory between hours and stored beside the scores (table score_states, once a day per agent in
 * its own hour: `foldDue`), so a restarted process reads them instead of rescoring every season from its first
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
    { upTo: number; leafSeal: string; asOf: number; agents: number; folds: Map<string, Fold> }
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
      const { seen } = coverage;
      const state = seen === undefined ? undefined : storedState(row.state);
      if (seen === undefined || state === undefined) return undefined;
      return {
        state,
        consumed: coverage.consumed,
        seen,
        held: coverage.held ?? NO_ROWS,
        lastSnapshotAt: coverage.lastSnapshotAt ?? -Infinity,
        logSize: row.log_size,
        leafSeal: row.last_leaf_seal,
        storedAsOf: Number(row.created_at),
      };
    });
    this.seasons.set(header.seasonId, { upTo, leafSeal, asOf: header.asOf, agents: agents.length, folds });
  }

  /**
   * Where the season's rows may start (after `prepare`): each agent's from its fold's log size,
   * when at least half the agents have a fold (the others are read whole, one at a time).
   */
  rowsStart(seasonId: string): RowsStart | undefined {
    const season = this.seasons.get(seasonId);
    if (season === undefined) return undefined;
    const start = new Map<string, { logSize: number; seen: RecordCounts }>();
    for (const [agentId, fold] of season.folds)
      start.set(agentId, { logSize: fold.logSize, seen: fold.seen });
    return start.size * 2 >= season.agents ? start : undefined;
  }

  openSeason(header: SeasonHeader): SeasonScoring {
    const reference = this.reference.openSeason(header);
    const upTo = header.inputsLogSize ?? 0;
    const prepared = this.seasons.get(header.seasonId);
    // Unprepared (no store to check folds against): every fold is built here and kept for nobody.
    const season =
      prepared?.upTo === upTo
        ? prepared
        : {
            upTo,
            leafSeal: "",
            asOf: header.asOf,
            agents: header.agents.length,
            folds: new Map<string, Fold>(),
          };
    const counts: IncrementalCounts = { advanced: 0, rebuilt: 0, fromScratch: 0 };
    this.counts = counts;
    // Every fold scored is stored when due (`foldDue`), changed or not: a restart reads from its log size on.
    const scored: [string, Fold][] = [];
    // The last agent tried by `needsHistory`, so `scoreAgent` does not fold its records twice.
    let tried: { agent: AgentInputs; attempt: Attempt } | undefined;
    const attempt = (agent: AgentInputs): Attempt => {
      if (tried?.agent.records === agent.records && tried.agent.agentId === agent.agentId)
        return tried.attempt;
      const prior = season.folds.get(agent.agentId);
      const covers = { logSize: upTo, leafSeal: season.leafSeal };
      // One context per agent and hour, for its fold and its manifest (none: an agent the season does not know).
      const context = agentContext(reference, agent.agentId);
      const advanced = context && prior && advance(reference, context, agent, prior, covers);
      if (advanced) return { fold: advanced, rebuilt: false, context: context! };
      // A fold built afresh, or a score from scratch, reads every record of the agent.
      if (!agent.records.complete) return "history";
      const rebuilt = context && advance(reference, context, agent, undefined, covers);
      return rebuilt ? { fold: rebuilt, rebuilt: true, context: context! } : "from-scratch";
    };
    return {
      needsHistory: (agent) => {
        tried = { agent, attempt: attempt(agent) };
        return tried.attempt === "history";
      },
      scoreAgent: (agent) => {
        const tries = attempt(agent);
        tried = undefined;
        if (tries === "history") throw new PartialRecordsError(agent.agentId);
        if (tries === "from-scratch") {
          season.folds.delete(agent.agentId);
          counts.fromScratch += 1;
          reference.scoreAgent(agent);
          agent.records.claim("score", NO_RECORDS); // a fold is built again next hour, from every record
          return;
        }
        const { fold } = tries;
        if (tries.rebuilt) counts.rebuilt += 1;
        else counts.advanced += 1;
        season.folds.set(agent.agentId, fold);
        scored.push([agent.agentId, fold]);
        agent.records.claim("score", fold.seen);
        reference.add(manifestFrom(fold.state, tries.context));
      },
      finish: () => reference.finish(),
      stateRows: (createdAt) => {
        if (prepared !== season) return [];
        const rows: NewScoreState[] = [];
        for (const [agentId, fold] of scored) {
          if (!foldDue(agentId, header.asOf, fold.storedAsOf)) continue;
          let text: string;
          let consumed: string;
          try {
            text = stateText(fold.state);
            consumed = coverageText(fold);
          } catch (error) {
            if (error instanceof AugurError) continue; // kept in memory only: a restart rebuilds it
            throw error;
          }
          rows.push({
            agent_id: agentId,
            season_id: header.seasonId,
            log_size: fold.logSize,
            last_leaf_seal: fold.leafSeal,
            consumed,
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

/** A stored fold's state, or undefined for a text of a version this code does not read (rebuilt). */
function storedState(text: string): AgentSeasonState | undefined {
  try {
    return parseStateText(text);
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
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
 * A fold's coverage as stored. Its held records go in as the JSON of their input rows, which must
 * read back as the same numbers: −0 and non-finite ones are refused (UnsealableRecordError).
 */
function coverageText(fold: Fold): string {
  const held = Object.values(fold.held).some((rows: unknown[]) => rows.length > 0) ? fold.held : undefined;
  const coverage: StoredCoverage = {
    consumed: fold.consumed,
    lastSnapshotAt: Number.isFinite(fold.lastSnapshotAt) ? fold.lastSnapshotAt : null,
    seen: fold.seen,
    ...(held ? { held } : {}),
  };
  return JSON.stringify(coverage, (key, value: unknown) => {
    if (typeof value === "number" && (!Number.isFinite(value) || Object.is(value, -0)))
      throw new UnsealableRecordError(
        key,
        `is ${Object.is(value, -0) ? "-0" : value}, which JSON cannot carry`,
      );
    return value;
  });
}

const KINDS = ["snapshots", "decisions", "trades", "calls"] as const;

/**
 * The agent's fold advanced by its records after `prior` (all of them without one), or undefined
 * when they cannot be folded: fewer records than seen (not this log), records before the rows'
 * start needed (the lists start after what the fold has seen), a snapshot not later than the last
 * one seen (the scorer's one-per-moment rule spans batches), or a record the scorer refuses or
 * cannot append (AugurError). Records held by `prior` are folded first.
 */
function advance(
  reference: AugurSeasonScoring,
  context: AgentContext,
  agent: AgentInputs,
  prior: Fold | undefined,
  covers: Pick<Fold, "logSize" | "leafSeal">,
): Fold | undefined {
  const base = agent.records.base;
  if (base === null) return undefined;
  const from = prior?.seen ?? NO_RECORDS;
  const now = agent.records.totals();
  if (KINDS.some((k) => now[k] < from[k] || base[k] > from[k])) return undefined;
  if (prior && KINDS.every((k) => now[k] === from[k])) return { ...prior, ...covers };
  let lastSnapshotAt = prior?.lastSnapshotAt ?? -Infinity;
  const times = agent.records.snapshots.at;
  const local = (k: (typeof KINDS)[number]) => from[k] - base[k];
  const firstNew = local("snapshots");
  for (let i = firstNew; i < now.snapshots - base.snapshots; i++)
    if (times[i]! <= lastSnapshotAt) return undefined;
  for (let i = firstNew; i < now.snapshots - base.snapshots; i++)
    lastSnapshotAt = Math.max(lastSnapshotAt, times[i]!);
  try {
    const fresh = agentRows(agent, {
      snapshots: local("snapshots"),
      decisions: local("decisions"),
      trades: local("trades"),
      calls: local("calls"),
    });
    const held = prior?.held ?? NO_ROWS;
    const rows = {
      snapshots: [...held.snapshots, ...fresh.snapshots],
      decisions: [...held.decisions, ...fresh.decisions],
      trades: [...held.trades, ...fresh.trades],
      calls: [...held.calls, ...fresh.calls],
    };
    const batch = reference.validate(agent.agentId, rows);
    const start = prior?.state ?? emptyState(agent.agentId, context.header.season.id);
    const { state, taken } = advanceState(start, batch, context.bounds);
    const consumed = prior?.consumed ?? NO_RECORDS;
    return {
      state,
      consumed: {
        snapshots: consumed.snapshots + taken.snapshots,
        decisions: consumed.decisions + taken.decisions,
        trades: consumed.trades + taken.trades,
        calls: consumed.calls + taken.calls,
      },
      seen: now,
      // Rows held for a later clock (after the hour) are folded, first, at a later hour.
      held: {
        snapshots: rows.snapshots.slice(taken.snapshots),
        decisions: rows.decisions.slice(taken.decisions),
        trades: rows.trades.slice(taken.trades),
        calls: rows.calls.slice(taken.calls),
      },
      lastSnapshotAt,
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
