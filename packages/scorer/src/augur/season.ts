import type { Hex32 } from "../hex";
import { rootOfSealBytes } from "./snapshot-root";
import { measureDna, type TradePoint } from "./dna";
import { AUGUR_SCORE_V1, type AugurFormula, type TermName } from "./formula";
import { decimalValue, parseTime, validateSeasonInput } from "./input";
import {
  type CreatorInput,
  deriveMatch,
  deriveOutputs,
  type ManifestInputs,
  type ManifestSubject,
  type MeasuredValues,
  type ScoreManifest,
  sealManifest,
} from "./manifest";
import { daysCompeting, measureCalibration, measureReturns, type SnapshotPoint } from "./measure";
import { compareByRankThenAgent, competitionRanks } from "./rank";
import { sealSnapshot, snapshotSealBytes } from "./snapshot-seal";
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

interface AgentRecords {
  snapshots: SnapshotInput[];
  decisions: DecisionInput[];
  trades: TradeInput[];
  calls: CallInput[];
}

/** Validates a parsed season.json, then scores it. */
export function scoreSeasonJson(raw: unknown, formula: AugurFormula = AUGUR_SCORE_V1): SeasonScores {
  return scoreSeason(validateSeasonInput(raw), formula);
}

/**
 * Scores every agent of a validated season input. Only records inside the season up to the
 * clock count, where clock = min(as_of, season end). Each agent's row depends only on its own
 * records and its creator's prior sealed rows, never on a rival's.
 */
export function scoreSeason(input: SeasonInput, formula: AugurFormula = AUGUR_SCORE_V1): SeasonScores {
  const start = parseTime(input.season.start, "season.start");
  const clock = Math.min(parseTime(input.as_of, "as_of"), parseTime(input.season.end, "season.end"));
  const inSeason = (at: string, path: string): boolean => {
    const ms = parseTime(at, path);
    return ms >= start && ms <= clock;
  };

  const records = new Map<string, AgentRecords>();
  for (const agent of input.agents)
    records.set(agent.id, { snapshots: [], decisions: [], trades: [], calls: [] });
  const of = (agent: string): AgentRecords => records.get(agent)!;
  input.snapshots.forEach(
    (row, i) => inSeason(row.at, `snapshots[${i}].at`) && of(row.agent).snapshots.push(row),
  );
  input.decisions.forEach(
    (row, i) => inSeason(row.at, `decisions[${i}].at`) && of(row.agent).decisions.push(row),
  );
  input.trades.forEach((row, i) => inSeason(row.at, `trades[${i}].at`) && of(row.agent).trades.push(row));
  input.calls.forEach(
    (row, i) => inSeason(row.resolved_at, `calls[${i}].resolved_at`) && of(row.agent).calls.push(row),
  );

  const latestPrior = latestPriorScores(input.prior_scores, parseTime(input.as_of, "as_of"));
  const unranked = input.agents.map((agent) => {
    const creatorInputs = creatorInputsFor(agent, input.agents, latestPrior);
    return scoreAgent(agent, of(agent.id), creatorInputs, input, clock, formula);
  });
  const ranks = competitionRanks(unranked.map((row) => row.score));
  const rows: ScoreRow[] = unranked
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
  return { formula: formula.version, season_id: input.season.id, as_of: input.as_of, rows };
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
  agents: readonly AgentInput[],
  latestPrior: Map<string, PriorScoreInput>,
): CreatorInput[] {
  const inputs: CreatorInput[] = [];
  for (const other of agents) {
    if (other.id === agent.id || other.creator !== agent.creator || !other.active) continue;
    const row = latestPrior.get(other.id);
    if (!row) continue;
    const { agent: id, season_id, performance, seal, sealed_at } = row;
    inputs.push({ agent: id, season_id, performance, seal, sealed_at });
  }
  return inputs.sort((a, b) => (a.agent < b.agent ? -1 : a.agent > b.agent ? 1 : 0));
}

function byTime<T>(rows: readonly T[], at: (row: T) => string): { row: T; ms: number }[] {
  // Stable: rows at the same time keep their input order.
  return rows.map((row) => ({ row, ms: parseTime(at(row), "at") })).sort((a, b) => a.ms - b.ms);
}

function scoreAgent(
  agent: AgentInput,
  own: AgentRecords,
  creatorInputs: CreatorInput[],
  input: SeasonInput,
  clock: number,
  formula: AugurFormula,
): Omit<ScoreRow, "rank"> {
  const snapshots = byTime(own.snapshots, (row) => row.at);
  const sealBytes = snapshots.map(({ row }) => snapshotSealBytes(row));
  const first = snapshots[0];
  const last = snapshots[snapshots.length - 1];
  const ownDecisions = own.decisions.filter((decision) => decision.decider === "agent").length;
  const subject: ManifestSubject = {
    agent: agent.id,
    creator: agent.creator,
    style: agent.style,
    season_id: input.season.id,
    as_of: input.as_of,
  };
  const inputs: ManifestInputs = {
    snapshot_count: snapshots.length,
    snapshot_root: rootOfSealBytes(sealBytes),
    first_snapshot_seal: first ? sealSnapshot(first.row) : null,
    last_snapshot_seal: last ? sealSnapshot(last.row) : null,
    decision_count: own.decisions.length,
    own_decision_count: ownDecisions,
    trade_count: own.trades.length,
  };

  const eligible = ineligibleReason(inputs.snapshot_count, inputs.own_decision_count, formula) === null;
  const measured = eligible ? measure(snapshots, own, creatorInputs, subject, inputs, clock, formula) : null;
  const outputs = deriveOutputs(subject, inputs, measured, formula);
  const manifest: ScoreManifest = { formula, subject, inputs, measured, outputs };
  return {
    agent_id: agent.id,
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
  snapshots: { row: SnapshotInput; ms: number }[],
  own: AgentRecords,
  creatorInputs: CreatorInput[],
  subject: ManifestSubject,
  inputs: ManifestInputs,
  clock: number,
  formula: AugurFormula,
): MeasuredValues {
  const points: SnapshotPoint[] = snapshots.map(({ row, ms }) => ({
    atMs: ms,
    nav: decimalValue(row.nav),
    flow: decimalValue(row.flow),
    invested: row.invested,
  }));
  const days = daysCompeting(points[0]!.atMs, clock, formula);
  const trades: TradePoint[] = byTime(own.trades, (row) => row.at).map(({ row, ms }) => ({
    atMs: ms,
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
    ...measureReturns(points, formula),
    days,
    ...measureCalibration(resolved, formula),
    creator_inputs: creatorInputs,
    dna,
    match: deriveMatch(dna, subject, inputs, formula),
  };
}
