import { RISK_SCORE_V1 } from "./constants";
import type { HolderIndexPoint } from "./types";

/** Deepest peak-to-trough fall of the index, as a fraction of the peak (0 when it never fell). */
export function worstFall(points: readonly HolderIndexPoint[]): number {
  let peak = 0;
  let worst = 0;
  for (const { index } of points) {
    if (index > peak) peak = index;
    else if (peak > 0) {
      const fall = (peak - index) / peak;
      if (fall > worst) worst = fall;
    }
  }
  return worst;
}

/**
 * `min(fall / 0.50, 1)`. Needs at least two points: one point is no history, which is unknown,
 * not "never fell".
 */
export function readWorstFall(holderIndex: readonly HolderIndexPoint[] | null): number | null {
  if (holderIndex === null || holderIndex.length < 2) return null;
  return Math.min(worstFall(holderIndex) / RISK_SCORE_V1.worstFallFullReading, 1);
}
