import { TERM_NAMES, type AugurFormula, type TermName } from "./formula";

/** Everything the six terms are computed from; each is stored in the manifest's measured values. */
export interface TermInputs {
  readonly return: number;
  readonly sigma: number;
  readonly max_drawdown: number;
  readonly exposure: number;
  readonly days: number;
  readonly brier: number | null;
  /** Latest sealed performance of each of the creator's other active agents (may be empty). */
  readonly creator_performances: readonly number[];
}

/** Each term on 0–100; null when it has nothing to measure (then it drops out of the weights). */
export type Terms = Readonly<Record<TermName, number | null>>;

export function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

export function computeTerms(m: TermInputs, formula: AugurFormula): Terms {
  const c = formula.constants;
  const sigmaPerExposure = m.sigma / m.exposure;
  const drawdownPerExposure = m.max_drawdown / m.exposure;
  let creator: number | null = null;
  if (m.creator_performances.length > 0) {
    let sum = 0;
    for (const p of m.creator_performances) sum += p;
    creator = sum / m.creator_performances.length;
  }
  return {
    performance: clamp01(0.5 + m.return / c.performance_return_scale) * 100,
    risk:
      0.5 * clamp01(1 - sigmaPerExposure / c.risk_sigma_scale) * 100 +
      0.5 * clamp01(1 - drawdownPerExposure / c.risk_drawdown_scale) * 100,
    consistency: clamp01(1 - sigmaPerExposure / c.consistency_sigma_scale) * 100,
    calibration: m.brier === null ? null : clamp01(1 - m.brier / c.calibration_brier_scale) * 100,
    longevity: clamp01(m.days / c.longevity_full_days) * 100,
    creator,
  };
}

/** Each measured term's weight divided by the sum of the measured terms' weights. */
export function weightsUsed(terms: Terms, formula: AugurFormula): Partial<Record<TermName, number>> {
  const total = measuredWeight(terms, formula);
  const used: Partial<Record<TermName, number>> = {};
  for (const name of TERM_NAMES) if (terms[name] !== null) used[name] = formula.weights[name] / total;
  return used;
}

/** weighted = Σ(weight × term) / Σ(weight), over measured terms only. */
export function weightedTotal(terms: Terms, formula: AugurFormula): number {
  let sum = 0;
  for (const name of TERM_NAMES) {
    const term = terms[name];
    if (term !== null) sum += formula.weights[name] * term;
  }
  return sum / measuredWeight(terms, formula);
}

function measuredWeight(terms: Terms, formula: AugurFormula): number {
  let total = 0;
  for (const name of TERM_NAMES) if (terms[name] !== null) total += formula.weights[name];
  return total;
}

/** multiplier = 0.8 + 0.2 × match */
export function strategyMultiplier(match: number, formula: AugurFormula): number {
  return formula.constants.multiplier_base + formula.constants.multiplier_match_weight * match;
}

/** overall = Math.round(weighted × multiplier × 10) / 10 */
export function overallScore(weighted: number, multiplier: number, formula: AugurFormula): number {
  const scale = 10 ** formula.constants.overall_decimals;
  return Math.round(weighted * multiplier * scale) / scale;
}
