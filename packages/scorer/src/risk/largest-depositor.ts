import { clamp01 } from "./clamp";
import { RISK_SCORE_V1 } from "./constants";

/** 0 up to a quarter held by one wallet, rising linearly to 1 when one wallet holds everything. */
export function readLargestDepositor(share: number | null): number | null {
  if (share === null) return null;
  const { depositorFloorShare: floor, depositorFullShare: full } = RISK_SCORE_V1;
  return clamp01((share - floor) / (full - floor));
}
