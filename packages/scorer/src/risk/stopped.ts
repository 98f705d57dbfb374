import { clamp01 } from "./clamp";

/** `1 − days traded / days observed`; unknown when either count is, or nothing was observed. */
export function readStopped(daysTraded: number | null, daysObserved: number | null): number | null {
  if (daysTraded === null || daysObserved === null || daysObserved <= 0) return null;
  return clamp01(1 - daysTraded / daysObserved);
}
