/** The six components, in the fixed order every sum and every row walks them. */
export const RISK_COMPONENTS = [
  "worst_fall",
  "shared_exposure",
  "liquidation",
  "exit",
  "largest_depositor",
  "stopped",
] as const;

export type RiskComponent = (typeof RISK_COMPONENTS)[number];

/**
 * risk-score/v1. Weights are integer basis points (summing to 10,000) so the measurable share is
 * an exact ratio of integers rather than a float sum. The weights are a judgement, not a finding.
 */
export const RISK_SCORE_V1 = Object.freeze({
  version: "risk-score/v1",
  weightsBps: Object.freeze({
    worst_fall: 2500,
    shared_exposure: 2000,
    liquidation: 1750,
    exit: 1750,
    largest_depositor: 1200,
    stopped: 800,
  } satisfies Record<RiskComponent, number>),
  /** A fall of this fraction of the peak (or deeper) reads 1. */
  worstFallFullReading: 0.5,
  /** A cushion of this adverse move (or more) before maintenance margin reads 0. */
  liquidationSafeCushion: 0.25,
  /** This share of the vault withdrawable (or more) reads 0. */
  exitSafeFreeShare: 0.25,
  /** One wallet's share reads 0 up to this, rising linearly ... */
  depositorFloorShare: 0.25,
  /** ... to 1 at this share. */
  depositorFullShare: 1,
  /** Below this share of the weight measurable, no score is published. */
  minimumMeasurableShare: 0.5,
  /** Published readings carry 6 decimals; the total is computed from them. */
  readingDecimals: 6,
  /** Published scores carry one decimal on the 0–100 scale. */
  scoreDecimals: 1,
});

export const TOTAL_WEIGHT_BPS = 10_000;

/** Every risk methodology this build publishes, by the id its sealed rows and readings name. */
const RISK_METHODOLOGIES: ReadonlyMap<string, typeof RISK_SCORE_V1> = new Map([
  [RISK_SCORE_V1.version, RISK_SCORE_V1],
]);

/**
 * The constants (weights, scales) of the methodology a sealed row names, so a page prints what
 * the row was computed by; undefined for an id this build does not carry.
 */
export function riskMethodology(id: string): typeof RISK_SCORE_V1 | undefined {
  return RISK_METHODOLOGIES.get(id);
}
