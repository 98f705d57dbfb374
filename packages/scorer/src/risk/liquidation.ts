import { clamp01 } from "./clamp";
import { RISK_SCORE_V1 } from "./constants";

/**
 * `clamp01(1 − cushion / 0.25)`: 25 % of adverse move or more reads 0, nothing left reads 1.
 * An unleveraged long book has a cushion of 1 (the price can go to zero) and so reads 0.
 */
export function readLiquidation(cushion: number | null): number | null {
  if (cushion === null) return null;
  return clamp01(1 - cushion / RISK_SCORE_V1.liquidationSafeCushion);
}
