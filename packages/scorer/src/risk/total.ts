import { RISK_COMPONENTS, RISK_SCORE_V1, TOTAL_WEIGHT_BPS } from "./constants";
import { roundScore } from "./round";
import type { RiskComponents, RiskReason } from "./types";

export interface RiskTotal {
  readonly score: number | null;
  readonly measurable_share: number;
  readonly reason: RiskReason | null;
}

/**
 * Σ weight × reading over the measurable components / Σ their weights, × 100. A null component
 * does not vote: it is left out of both sums, so it counts neither as safe nor as dangerous.
 */
export function combineReadings(components: RiskComponents): RiskTotal {
  let measurableBps = 0;
  let weighted = 0;
  for (const name of RISK_COMPONENTS) {
    const reading = components[name];
    if (reading === null) continue;
    const weight = RISK_SCORE_V1.weightsBps[name];
    measurableBps += weight;
    weighted += weight * reading;
  }
  const measurable_share = measurableBps / TOTAL_WEIGHT_BPS;
  if (measurable_share < RISK_SCORE_V1.minimumMeasurableShare) {
    return { score: null, measurable_share, reason: "insufficient_measurable" };
  }
  return { score: roundScore((100 * weighted) / measurableBps), measurable_share, reason: null };
}
