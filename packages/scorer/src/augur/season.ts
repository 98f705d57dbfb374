import type { Hex32 } from "../hex";
import { measureDna, type TradePoint } from "./dna";
import { AUGUR_SCORE_V1, type AugurFormula, type TermName } from "./formula";
import { InvalidInputError } from "../errors";
import { decimalValue, parseTime, validateSeasonInput } from "./input";
import { type FoldedSnapshots, foldSnapshots } from "./snapshot-fold";
import { type Timed, timedInSeason } from "./timed";
import {
  type CreatorInput,
  deriveMatch,
  deriveOutputs,
  type InvalidInputNote,
  type ManifestInputs,
  type ManifestSubject,
  type MeasuredValues,
  type ScoreManifest,
} from "./manifest";
import { sealManifest } from "./manifest-seal";
import { inputRoots, MANIFEST_VERSION } from "./input-roots";
import { daysCompeting, measureCalibration, measureReturns, type SnapshotSeries } from "./measure";
import { compareByRankThenAgent, competitionRanks } from "./rank";
import type { Terms } from "./terms";
import type {
  AgentInput,
  CallInput,
  DecisionInput,
  PriorScoreInput,
  SeasonInput,
  SnapshotInput,
  TradeInput,
} from "./types";
import { ineligibleReason, type IneligibleReason } from "./eligibility";

/** One row of `augur score`, as pinned by the issue. */
export interface ScoreRow {
  readonly agent_id: string;
  readonly score: number | null;
  readonly rank: number | null;
  readonly reason: IneligibleReason | null;
  readonly terms: Terms;
  readonly weights_used: Partial<Record<TermName, number>>;
  readonly match: number | null;
  readonly multiplier: number | null;
  readonly manifest: ScoreManifest;
  readonly seal: Hex32;
}

export interface SeasonScores {
  readonly formula: string;
  readonly season_id: string;
  readonly as_of: string;
  /** By rank, then agent id; unranked rows last. */
  readonly rows: readonly ScoreRow[];
}

/** Validates a parsed season.json, then scores it. */
export function scoreSeasonJson(raw: unknown, formula: AugurFormula = AUGUR_SCORE_V1): SeasonScores {
  return scoreSeason(validateSeasonInput(raw), formula);
}

/** One agent's records (any order; records outside the season window are ignored). */
export interface SeasonAgentRecords {
  readonly snapshots: readonly SnapshotInput[];
  readonly decisions: readonly DecisionInput[];
  readonly trades: readonly TradeInput[];
  readonly calls: readonly CallInput[];
}

/** What a season's scoring needs besides each agent's own records. */
export type SeasonHeader = Pick<
  SeasonInput,
  "season" | "as_of" | "agents" | "prior_scores" | "inputs_log_size"
>;

/**
 * Scores the agents of one season one at a time, so a caller can stream each agent's records
 * (from a store) instead of holding the whole season in memory. Rows are validated records.
 * Only records inside the season up to the clock count, clock = min(as_of, season end). An
 * agent's row depends only on its own records and its creator's prior sealed rows.
 */
export class SeasonScorer {
  private readonly start: number;
  private readonly clock: number;
  private readonly agents = new Map<string, AgentInput>();
  private readonly creatorInputs = new Map<string, CreatorInput[]>();

  constructor(
    private readonly header: SeasonHeader,
    private readonly formula: AugurFormula = AUGUR_SCORE_V1,
  ) {
    this.start = parseTime(header.season.start, "season.start");
    this.clock = Math.min(parseTime(header.as_of, "as_of"), parseTime(header.season.end, "season.end"));
    for (const agent of header.agents) this.agents.set(agent.id, agent);
    const latestPrior = latestPriorScores(header.prior_scores, parseTime(header.as_of, "as_of"));
    const byCreator = new Map<string, AgentInput[]>();
    for (const agent of header.agents) {
      const list = byCreator.get(agent.creator) ?? [];
      list.push(agent);
      byCreator.set(agent.creator, list);
    }
    for (const agent of header.agents)
      this.creatorInputs.set(agent.id, creatorInputsFor(agent, byCreator.get(agent.creator)!, latestPrior));
  }

  /**
   * What an agent's row is made of besides its own records: the incremental fold
   * (incremental/manifest-from.ts) builds the very rows scoreAgent builds from these.
   */
  agentContext(agentId: string): AgentContext {
    const agent = this.agents.get(agentId);
    if (!agent) throw new InvalidInputError("agent", `unknown agent "${agentId}" (not in agents)`);
    return {
      agent,
      creatorInputs: this.creatorInputs.get(agentId)!,
      header: this.header,
      bounds: {
        startMs: this.start,
        clockMs: this.clock,
        endMs: parseTime(this.header.season.end, "season.end"),
      },
      formula: this.formula,
    };
  }

  inSeason(at: string): boolean {
    const ms = parseTime(at, "at");
    return ms >= this.start && ms <= this.clock;
  }

  /** The agent's row without its rank (ranks need every row: see rankRows). */
  scoreAgent(agentId: string, records: SeasonAgentRecords): UnrankedRow {
    const agent = this.agents.get(agentId);
    if (!agent) throw new InvalidInputError("agent", `unknown agent "${agentId}" (not in agents)`);
    // Usually every row is in the season: the array itself then, without a copy.
    const within = <T>(rows: readonly T[], at: (row: T) => string): readonly T[] =>
      rows.every((row) => this.inSeason(at(row))) ? rows : rows.filter((row) => this.inSeason(at(row)));
    // Snapshots and trades are kept with their parsed times, so each time is parsed once.
    const snapshots = foldSnapshots(records.snapshots, this.start, this.clock);
    const trades = timedInSeason(records.trades, (r) => r.at, this.start, this.clock);
    const own: OwnRecords = {
      decisions: within(records.decisions, (r) => r.at),
      trades: trades.rows,
      calls: within(records.calls, (r) => r.resolved_at),
    };
    return scoreAgent(
      agent,
      own,
      snapshots,
      trades,
      this.creatorInputs.get(agentId)!,
      this.header,
      this.clock,
      this.formula,
    );
  }

  /**
   * The row of an agent whose records cannot be scored (isolation: the season goes on without
   * it): a null score with reason `invalid_input`, its manifest naming the refused record and
   * counting nothing, so a verifier recomputes the null outputs like any other.
   */
  refuseAgent(agentId: string, invalid: InvalidInputNote): UnrankedRow {
    const agent = this.agents.get(agentId);
    if (!agent) throw new InvalidInputError("agent", `unknown agent "${agentId}" (not in agents)`);
    const empty = foldSnapshots([], this.start, this.clock);
    const subject: ManifestSubject = {
      agent: agent.id,
      creator: agent.creator,
      style: agent.style,
      season_id: this.header.season.id,
      as_of: this.header.as_of,
    };
    const inputs: ManifestInputs = {
      snapshot_count: 0,
      snapshot_root: empty.root,
      first_snapshot_seal: null,
      last_snapshot_seal: null,
      decision_count: 0,
      own_decision_count: 0,
      trade_count: 0,
      invalid_input: invalid,
    };
    return rowOf(agent.id, {
      formula: this.formula,
      subject,
      inputs,
      measured: null,
      outputs: deriveOutputs(subject, inputs, null, this.formula),
    });
  }

  /** The season's output: every row ranked, by rank then agent id. */
  result(rows: readonly UnrankedRow[]): SeasonScores {
    return {
      formula: this.formula.version,
      season_id: this.header.season.id,
      as_of: this.header.as_of,
      rows: rankRows(rows),
    };
  }
}

export type UnrankedRow = Omit<ScoreRow, "rank">;

/** An agent of a season with everything its row needs besides its records (SeasonScorer.agentContext). */
export interface AgentContext {
  readonly agent: AgentInput;
  readonly creatorInputs: readonly CreatorInput[];
  readonly header: SeasonHeader;
  /** The season's window in ms: rows count inside [start, clock], clock = min(as_of, end). */
  readonly bounds: { readonly startMs: number; readonly clockMs: number; readonly endMs: number };
  readonly formula: AugurFormula;
}

/** An agent's in-season records besides its snapshots (those are folded: see foldSnapshots). */
type OwnRecords = Omit<SeasonAgentRecords, "snapshots">;

/** Competition ranks (1, 1, 3) over the scores; rows by rank, unranked last, then agent id. */
export function rankRows(unranked: readonly UnrankedRow[]): ScoreRow[] {
  const ranks = competitionRanks(unranked.map((row) => row.score));
  return unranked
    .map((row, i) => ({
      agent_id: row.agent_id,
      score: row.score,
      rank: ranks[i]!,
      reason: row.reason,
      terms: row.terms,
      weights_used: row.weights_used,
      match: row.match,
      multiplier: row.multiplier,
      manifest: row.manifest,
      seal: row.seal,
    }))
    .sort(compareByRankThenAgent);
}

/** Scores every agent of a validated season input. */
export function scoreSeason(input: SeasonInput, formula: AugurFormula = AUGUR_SCORE_V1): SeasonScores {
  return new SeasonScorer(input, formula).result(scoreSeasonAgents(input, undefined, formula));
}

/**
 * The unranked rows of the agents of `only` (every agent without it), in the input's agent order.
 * A share of a season scored apart (a worker's) gives the very rows the whole season gives them:
 * the header still lists every agent, for the creator inputs.
 */
export function scoreSeasonAgents(
  input: SeasonInput,
  only?: ReadonlySet<string>,
  formula: AugurFormula = AUGUR_SCORE_V1,
): UnrankedRow[] {
  const scorer = new SeasonScorer(input, formula);
  const agents = new Map(input.agents.map((agent, k) => [agent.id, k]));
  const snapshots = rowsByAgent(input.snapshots, agents, "snapshots");
  const decisions = rowsByAgent(input.decisions, agents, "decisions");
  const trades = rowsByAgent(input.trades, agents, "trades");
  const calls = rowsByAgent(input.calls, agents, "calls");
  const rows: UnrankedRow[] = [];
  input.agents.forEach((agent, k) => {
    if (only && !only.has(agent.id)) return;
    rows.push(
      scorer.scoreAgent(agent.id, {
        snapshots: snapshots(k),
        decisions: decisions(k),
        trades: trades(k),
        calls: calls(k),
      }),
    );
  });
  return rows;
}

/**
 * Agent k's rows in input order, gathered when agent k is scored. The input is read as runs of
 * adjacent rows of one agent, each agent keeping where its runs start and end: a season's rows
 * usually come grouped by agent (one run each), so no second copy of every row reference is held
 * up front (≈ 60 MB of a 10,000 × 720 season). One path serves every order.
 */
function rowsByAgent<T extends { readonly agent: string }>(
  rows: readonly T[],
  agents: ReadonlyMap<string, number>,
  field: string,
): (k: number) => readonly T[] {
  const starts = Array.from({ length: agents.size }, (): number[] => []);
  const ends = Array.from({ length: agents.size }, (): number[] => []);
  for (let from = 0, to = 0; from < rows.length; from = to) {
    const agent = rows[from]!.agent;
    const k = agents.get(agent);
    if (k === undefined)
      throw new InvalidInputError(`${field}[${from}].agent`, `unknown agent "${agent}" (not in agents)`);
    for (to = from + 1; to < rows.length && rows[to]!.agent === agent; to++);
    starts[k]!.push(from);
    ends[k]!.push(to);
  }
  return (k) => {
    const own: T[] = [];
    starts[k]!.forEach((from, r) => {
      for (let i = from; i < ends[k]![r]!; i++) own.push(rows[i]!);
    });
    return own;
  };
}

/** Each agent's latest prior row with sealed_at ≤ as_of (equal times: the larger seal, so it is stable). */
function latestPriorScores(rows: readonly PriorScoreInput[], asOf: number): Map<string, PriorScoreInput> {
  const latest = new Map<string, { row: PriorScoreInput; at: number }>();
  rows.forEach((row, i) => {
    const at = parseTime(row.sealed_at, `prior_scores[${i}].sealed_at`);
    if (at > asOf) return;
    const best = latest.get(row.agent);
    if (!best || at > best.at || (at === best.at && row.seal > best.row.seal))
      latest.set(row.agent, { row, at });
  });
  return new Map([...latest].map(([agent, { row }]) => [agent, row]));
}

/** The creator's other active agents that hold a sealed row, by agent id. */
function creatorInputsFor(
  agent: AgentInput,
  sameCreator: readonly AgentInput[],
  latestPrior: Map<string, PriorScoreInput>,
): CreatorInput[] {
  const inputs: CreatorInput[] = [];
  for (const other of sameCreator) {
    if (other.id === agent.id || !other.active) continue;
    const row = latestPrior.get(other.id);
    if (!row) continue;
    const { agent: id, season_id, performance, seal, sealed_at } = row;
    inputs.push({ agent: id, season_id, performance, seal, sealed_at });
  }
  return inputs.sort((a, b) => (a.agent < b.agent ? -1 : a.agent > b.agent ? 1 : 0));
}

function scoreAgent(
  agent: AgentInput,
  own: OwnRecords,
  snapshots: FoldedSnapshots,
  trades: Timed<TradeInput>,
  creatorInputs: CreatorInput[],
  input: SeasonHeader,
  clock: number,
  formula: AugurFormula,
): UnrankedRow {
  let ownDecisions = 0;
  for (const decision of own.decisions) if (decision.decider === "agent") ownDecisions += 1;
  const subject: ManifestSubject = {
    agent: agent.id,
    creator: agent.creator,
    style: agent.style,
    season_id: input.season.id,
    as_of: input.as_of,
  };
  const inputs: ManifestInputs = {
    snapshot_count: snapshots.count,
    snapshot_root: snapshots.root,
    first_snapshot_seal: snapshots.firstSeal,
    last_snapshot_seal: snapshots.lastSeal,
    decision_count: own.decisions.length,
    own_decision_count: ownDecisions,
    trade_count: own.trades.length,
    ...inputRoots(own, input.inputs_log_size ?? null),
  };

  const eligible = ineligibleReason(inputs.snapshot_count, inputs.own_decision_count, formula) === null;
  // Eligible rows have at least 3 snapshots, so the first one's time exists.
  const measured = eligible
    ? measure(
        snapshots.series,
        daysCompeting(snapshots.firstMs, clock, formula),
        own,
        trades,
        creatorInputs,
        subject,
        inputs,
        formula,
      )
    : null;
  const outputs = deriveOutputs(subject, inputs, measured, formula);
  return rowOf(agent.id, { manifest_version: MANIFEST_VERSION, formula, subject, inputs, measured, outputs });
}

/** The row of a manifest: its outputs beside it and its seal. */
export function rowOf(agentId: string, manifest: ScoreManifest): UnrankedRow {
  const { measured, outputs } = manifest;
  return {
    agent_id: agentId,
    score: outputs.score,
    reason: outputs.reason,
    terms: outputs.terms,
    weights_used: outputs.weights_used,
    match: measured === null ? null : measured.match,
    multiplier: outputs.multiplier,
    manifest,
    seal: sealManifest(manifest),
  };
}

function measure(
  series: SnapshotSeries,
  days: number,
  own: OwnRecords,
  sortedTrades: Timed<TradeInput>,
  creatorInputs: CreatorInput[],
  subject: ManifestSubject,
  inputs: ManifestInputs,
  formula: AugurFormula,
): MeasuredValues {
  const trades: TradePoint[] = sortedTrades.rows.map((row, i) => ({
    atMs: sortedTrades.ms[i]!,
    asset: row.asset,
    buy: row.side === "buy",
    quantity: decimalValue(row.quantity),
    price: decimalValue(row.price),
  }));
  const resolved = own.calls
    .filter((call) => call.outcome !== "void")
    .map((call) => ({ confidence: call.confidence, hit: call.outcome === "hit" }));
  const dna = measureDna(inputs.own_decision_count, trades, days);
  return {
    ...measureReturns(series, formula),
    days,
    ...measureCalibration(resolved, formula),
    creator_inputs: creatorInputs,
    dna,
    match: deriveMatch(dna, subject, inputs, formula),
  };
}
