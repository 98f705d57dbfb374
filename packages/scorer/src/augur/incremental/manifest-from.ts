import type { DnaFeatures } from "../dna";
import { ineligibleReason } from "../eligibility";
import { MANIFEST_VERSION } from "../input-roots";
import {
  deriveMatch,
  deriveOutputs,
  type ManifestInputs,
  type ManifestSubject,
  type MeasuredValues,
} from "../manifest";
import { daysCompeting } from "../measure";
import { type AgentContext, rowOf, type UnrankedRow } from "../season";
import { rootOf } from "./roots";
import type { AgentSeasonState, SnapshotFold, TradeFold } from "./state";

/**
 * The row the from-scratch scorer (SeasonScorer.scoreAgent) gives for the records `state` folded,
 * at the context's as-of: the same manifest object, hence the same seal (property-tested).
 */
export function manifestFrom(state: AgentSeasonState, context: AgentContext): UnrankedRow {
  const { agent, header, formula } = context;
  const { snapshots, decisions, trades, calls } = state;
  const subject: ManifestSubject = {
    agent: agent.id,
    creator: agent.creator,
    style: agent.style,
    season_id: header.season.id,
    as_of: header.as_of,
  };
  const inputs: ManifestInputs = {
    snapshot_count: snapshots.frontier.size,
    snapshot_root: rootOf(snapshots.frontier),
    first_snapshot_seal: snapshots.first_seal,
    last_snapshot_seal: snapshots.last_seal,
    decision_count: decisions.frontier.size,
    own_decision_count: decisions.own_count,
    trade_count: trades.frontier.size,
    decision_root: rootOf(decisions.frontier),
    trade_root: rootOf(trades.frontier),
    call_count: calls.frontier.size,
    call_root: rootOf(calls.frontier),
    inputs_log_size: header.inputs_log_size ?? null,
  };
  const eligible = ineligibleReason(inputs.snapshot_count, inputs.own_decision_count, formula) === null;
  let measured: MeasuredValues | null = null;
  if (eligible) {
    // Eligible rows have at least 3 snapshots, so the first one's time exists.
    const days = daysCompeting(snapshots.first_ms!, context.bounds.clockMs, formula);
    const dna = dnaOf(trades, decisions.own_count, days);
    measured = {
      ...returnMeasures(snapshots, formula.constants.min_exposure),
      days,
      calibration_calls: calls.resolved,
      brier: calls.resolved < formula.constants.min_resolved_calls ? null : calls.brier_sum / calls.resolved,
      creator_inputs: context.creatorInputs,
      dna,
      match: deriveMatch(dna, subject, inputs, formula),
    };
  }
  const outputs = deriveOutputs(subject, inputs, measured, formula);
  return rowOf(agent.id, { manifest_version: MANIFEST_VERSION, formula, subject, inputs, measured, outputs });
}

/** measureReturns' values from the fold: sigma's second pass runs over the kept returns, left to right. */
function returnMeasures(fold: SnapshotFold, minExposure: number) {
  const { returns } = fold;
  const n = returns.length;
  let sigma = 0;
  if (n > 0) {
    const mean = fold.return_sum / n;
    let squares = 0;
    for (let i = 0; i < n; i++) squares += (returns[i]! - mean) * (returns[i]! - mean);
    sigma = Math.sqrt(squares / n);
  }
  const count = fold.frontier.size;
  const meanInvested = count > 0 ? fold.invested_sum / count : 0;
  return {
    return: fold.index - 1,
    sigma,
    max_drawdown: fold.max_drawdown,
    exposure: Math.max(minExposure, meanInvested),
  };
}

/** measureDna's features from the fold: holding times are summed from the last trade back to the first. */
function dnaOf(fold: TradeFold, ownDecisions: number, days: number): DnaFeatures {
  let holdSum = 0;
  let holdCount = 0;
  for (let i = fold.holds.length - 1; i >= 0; i--) {
    const hold = fold.holds[i];
    if (hold === null || hold === undefined) continue;
    holdSum += hold;
    holdCount += 1;
  }
  const total = fold.buy_notional + fold.sell_notional;
  return {
    trades_per_day: days > 0 ? fold.frontier.size / days : null,
    decisions_per_day: days > 0 ? ownDecisions / days : null,
    holding_hours: holdCount > 0 ? holdSum / holdCount : null,
    directional_bias: total > 0 ? (fold.buy_notional - fold.sell_notional) / total : null,
    prior_move_alignment: fold.alignment_count > 0 ? fold.alignment_sum / fold.alignment_count : null,
  };
}
