import type { Hex32 } from "../hex";
import { type DnaFeatures, strategyMatch } from "./dna";
import { ineligibleReason, type IneligibleReason } from "./eligibility";
import type { InputRoots } from "./input-roots";
import type { AugurFormula, Style, TermName } from "./formula";
import {
  computeTerms,
  overallScore,
  strategyMultiplier,
  weightedTotal,
  weightsUsed,
  type Terms,
} from "./terms";

/** The agent and moment a manifest scores. */
export interface ManifestSubject {
  readonly agent: string;
  readonly creator: string;
  readonly style: Style;
  readonly season_id: string;
  readonly as_of: string;
}

/**
 * What the score was computed from, by seal and count; a version-2 manifest also binds the
 * decisions, trades and calls by root and names the log size it read them below (`InputRoots`).
 */
export interface ManifestInputs extends Partial<InputRoots> {
  readonly snapshot_count: number;
  /** RFC 6962 Merkle root over the snapshot seals, in time order. */
  readonly snapshot_root: Hex32;
  readonly first_snapshot_seal: Hex32 | null;
  readonly last_snapshot_seal: Hex32 | null;
  readonly decision_count: number;
  /** Decisions by the agent's own decider (what eligibility counts). */
  readonly own_decision_count: number;
  readonly trade_count: number;
  /** Only on an `invalid_input` row: the record the scorer refused (nothing else was read). */
  readonly invalid_input?: InvalidInputNote;
}

/** The record that made an agent unscorable: its seal (null if unknown), the field and the problem. */
export interface InvalidInputNote {
  readonly seal: Hex32 | null;
  readonly path: string;
  readonly problem: string;
}

/** A sealed score row of another active agent of the same creator. */
export interface CreatorInput {
  readonly agent: string;
  readonly season_id: string;
  readonly performance: number;
  readonly seal: Hex32;
  readonly sealed_at: string;
}

/** The measured values; every output is a function of these, the subject's style and the formula. */
export interface MeasuredValues {
  readonly return: number;
  readonly sigma: number;
  readonly max_drawdown: number;
  readonly exposure: number;
  readonly days: number;
  readonly calibration_calls: number;
  readonly brier: number | null;
  readonly creator_inputs: readonly CreatorInput[];
  readonly dna: DnaFeatures;
  readonly match: number;
}

export interface ManifestOutputs {
  readonly terms: Terms;
  readonly weights_used: Partial<Record<TermName, number>>;
  readonly weighted: number | null;
  readonly multiplier: number | null;
  readonly score: number | null;
  readonly reason: IneligibleReason | null;
}

/** The record a score's seal is the sha256 of (RFC 8785 canonical JSON). */
export interface ScoreManifest {
  /** 2 (MANIFEST_VERSION) for every manifest scored now; absent in version-1 manifests. */
  readonly manifest_version?: number;
  readonly formula: AugurFormula;
  readonly subject: ManifestSubject;
  readonly inputs: ManifestInputs;
  /** null when the agent is not eligible: nothing was measured. */
  readonly measured: MeasuredValues | null;
  readonly outputs: ManifestOutputs;
}

const NO_TERMS: Terms = {
  performance: null,
  risk: null,
  consistency: null,
  calibration: null,
  longevity: null,
  creator: null,
};

/** The DNA match the formula gives for these measured features (what `measured.match` must hold). */
export function deriveMatch(
  dna: DnaFeatures,
  subject: ManifestSubject,
  inputs: ManifestInputs,
  formula: AugurFormula,
): number {
  return strategyMatch(dna, subject.style, inputs.own_decision_count, formula);
}

/**
 * Every output from the manifest's inputs and measured values alone: the one function both
 * scoring and recomputation run, so a verifier reproduces the outputs bit for bit.
 */
export function deriveOutputs(
  subject: ManifestSubject,
  inputs: ManifestInputs,
  measured: MeasuredValues | null,
  formula: AugurFormula,
): ManifestOutputs {
  const reason =
    inputs.invalid_input !== undefined
      ? "invalid_input"
      : ineligibleReason(inputs.snapshot_count, inputs.own_decision_count, formula);
  if (reason !== null || measured === null) {
    return {
      terms: NO_TERMS,
      weights_used: {},
      weighted: null,
      multiplier: null,
      score: null,
      reason: reason ?? "too_few_snapshots",
    };
  }
  const terms = computeTerms(
    { ...measured, creator_performances: measured.creator_inputs.map((input) => input.performance) },
    formula,
  );
  const weighted = weightedTotal(terms, formula);
  const multiplier = strategyMultiplier(deriveMatch(measured.dna, subject, inputs, formula), formula);
  return {
    terms,
    weights_used: weightsUsed(terms, formula),
    weighted,
    multiplier,
    score: overallScore(weighted, multiplier, formula),
    reason: null,
  };
}
