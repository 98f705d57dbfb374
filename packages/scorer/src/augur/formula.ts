/**
 * augur-score/v1: every constant, weight and DNA region of the formula, in one frozen object.
 * The object is copied verbatim into every score manifest, so a manifest names exactly the
 * arithmetic that produced it. Changing any value here means a new formula version.
 */

/** The six terms, in the seed's order (also the order weights are summed in). */
export const TERM_NAMES = [
  "performance",
  "risk",
  "consistency",
  "calibration",
  "longevity",
  "creator",
] as const;
export type TermName = (typeof TERM_NAMES)[number];

/** The five DNA features (augur-dna/v1); see dna.ts for how each is measured. */
export const DNA_FEATURE_NAMES = [
  "trades_per_day",
  "decisions_per_day",
  "holding_hours",
  "directional_bias",
  "prior_move_alignment",
] as const;
export type DnaFeatureName = (typeof DNA_FEATURE_NAMES)[number];

export const STYLES = [
  "momentum",
  "mean-reversion",
  "trend-following",
  "market-neutral",
  "discretionary",
] as const;
export type Style = (typeof STYLES)[number];

/**
 * Where a style expects one feature: inside [min, max] fits fully (null = unbounded), and the fit
 * falls linearly to 0 at `width` beyond the nearer bound.
 */
export interface FeatureRegion {
  readonly feature: DnaFeatureName;
  readonly min: number | null;
  readonly max: number | null;
  readonly width: number;
}

export const AUGUR_SCORE_V1 = {
  version: "augur-score/v1",
  weights: {
    performance: 0.35,
    risk: 0.25,
    consistency: 0.15,
    calibration: 0.1,
    longevity: 0.1,
    creator: 0.05,
  },
  constants: {
    /** performance = clamp01(0.5 + R / 0.20) × 100 */
    performance_return_scale: 0.2,
    /** risk, first half: sigma per unit of exposure against 0.05 */
    risk_sigma_scale: 0.05,
    /** risk, second half: max drawdown per unit of exposure against 0.20 */
    risk_drawdown_scale: 0.2,
    /** consistency: sigma per unit of exposure against 0.04 */
    consistency_sigma_scale: 0.04,
    /** calibration = clamp01(1 − Brier / 0.25) × 100 */
    calibration_brier_scale: 0.25,
    /** longevity is full at 21 days competing */
    longevity_full_days: 21,
    /** exposure never falls below 0.02, so cash earns no risk credit */
    min_exposure: 0.02,
    min_resolved_calls: 5,
    min_own_decisions: 5,
    min_snapshots: 3,
    /** multiplier = 0.8 + 0.2 × match */
    multiplier_base: 0.8,
    multiplier_match_weight: 0.2,
    /** overall = Math.round(weighted × multiplier × 10) / 10 */
    overall_decimals: 1,
    seconds_per_day: 86400,
  },
  dna: {
    version: "augur-dna/v1",
    features: DNA_FEATURE_NAMES,
    /** Fewer own decisions than this: too little to measure, match = 1. */
    min_decisions_for_match: 5,
    styles: {
      momentum: [
        { feature: "prior_move_alignment", min: 0.2, max: null, width: 0.4 },
        { feature: "holding_hours", min: null, max: 72, width: 72 },
        { feature: "trades_per_day", min: 0.5, max: null, width: 0.5 },
      ],
      "mean-reversion": [
        { feature: "prior_move_alignment", min: null, max: -0.2, width: 0.4 },
        { feature: "holding_hours", min: null, max: 72, width: 72 },
      ],
      "trend-following": [
        { feature: "prior_move_alignment", min: 0.2, max: null, width: 0.4 },
        { feature: "holding_hours", min: 72, max: null, width: 72 },
      ],
      "market-neutral": [
        { feature: "directional_bias", min: -0.2, max: 0.2, width: 0.4 },
        { feature: "prior_move_alignment", min: -0.3, max: 0.3, width: 0.4 },
      ],
      discretionary: [],
    } satisfies Record<Style, readonly FeatureRegion[]>,
  },
} as const;

export type AugurFormula = typeof AUGUR_SCORE_V1;

/** Every formula version this build can recompute, by name. */
export const FORMULAS: Readonly<Record<string, AugurFormula>> = { [AUGUR_SCORE_V1.version]: AUGUR_SCORE_V1 };

export function isStyle(value: unknown): value is Style {
  return typeof value === "string" && (STYLES as readonly string[]).includes(value);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
deepFreeze(AUGUR_SCORE_V1);
