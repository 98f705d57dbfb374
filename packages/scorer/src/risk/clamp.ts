/** Pins a value into [0, 1]. Callers pass validated finite numbers; a missing reading is null, never clamped. */
export function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}
