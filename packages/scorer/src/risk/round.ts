import { RISK_SCORE_V1 } from "./constants";

function roundTo(value: number, decimals: number): number {
  const unit = 10 ** decimals;
  return Math.round(value * unit) / unit;
}

/**
 * Published readings carry 6 decimals: float residue (0.30000000000000004) is noise to a reader
 * and the total is computed from the published readings, so anyone recomputes the same number.
 */
export function roundReading(reading: number | null): number | null {
  return reading === null ? null : roundTo(reading, RISK_SCORE_V1.readingDecimals);
}

/** Published scores carry one decimal on the 0–100 scale. */
export function roundScore(score: number): number {
  return roundTo(score, RISK_SCORE_V1.scoreDecimals);
}
