import { RISK_SCORE_V1 } from "./constants";
import type { HolderIndexPoint } from "./types";

/** Deepest peak-to-trough fall of the index, as a fraction of the peak (0 when it never fell). */
export function worstFall(points: readonly HolderIndexPoint[]): number {
  const fall = { peak: 0, worst: 0 };
  for (const { index } of points) fallStep(fall, index);
  return fall.worst;
}

/** The running peak and deepest fall so far, after one more index point (both start at 0). */
export function fallStep(fall: { peak: number; worst: number }, index: number): void {
  if (index > fall.peak) fall.peak = index;
  else if (fall.peak > 0) {
    const drop = (fall.peak - index) / fall.peak;
    if (drop > fall.worst) fall.worst = drop;
  }
}

/**
 * `min(fall / 0.50, 1)`. Needs at least two points: one point is no history, which is unknown,
 * not "never fell".
 */
export function readWorstFall(holderIndex: readonly HolderIndexPoint[] | null): number | null {
  if (holderIndex === null || holderIndex.length < 2) return null;
  return fallReading(worstFall(holderIndex));
}

/** A worst fall (of at least two points) as its reading: `min(fall / 0.50, 1)`. */
export function fallReading(fall: number): number {
  return Math.min(fall / RISK_SCORE_V1.worstFallFullReading, 1);
}
