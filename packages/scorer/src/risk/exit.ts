import { clamp01 } from "./clamp";
import { RISK_SCORE_V1 } from "./constants";

/** `clamp01(1 − free / 0.25)`: a quarter free or more reads 0; null where the venue does not say. */
export function readExit(freeShare: number | null): number | null {
  if (freeShare === null) return null;
  return clamp01(1 - freeShare / RISK_SCORE_V1.exitSafeFreeShare);
}
