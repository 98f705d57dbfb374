import type { RefereePrediction } from "@augur/scorer";
import { formatIsoHour } from "@augur/scorer";
import { HOUR_SECONDS } from "../closes/record";
import type { CallTerms } from "@augur/records";

/** A referee prediction with its slot as unix seconds (the hour's start), for matching closes. */
export interface MappedPrediction extends RefereePrediction {
  readonly slotAt: number;
}

/**
 * One CallLedger call as a referee prediction (docs/referee.md, "From CallLedger calls"):
 * - `slot`: the first hour at or after the reveal, `⌈revealedAt / 3600⌉`, so the slot's close is
 *   never one the agent could see before it revealed (a floored slot would credit the agent with
 *   the part of the hour it had already watched);
 * - `horizon_h`: the window in whole hours, `⌈window / 3600⌉` (CallLedger's windows are 1 h, 4 h
 *   and 24 h; a window that is not a whole number of hours is rounded up, at least 1);
 * - `direction`: the revealed direction;
 * - `size`: `confidenceBps / 100` (0–100), the one per-call magnitude the agent states (its stake
 *   is per account, the same for every call, so it carries no per-call information).
 * An expired call was never revealed (no asset, window or direction): it is no prediction.
 */
export function predictionOf(agent: string, call: CallTerms): MappedPrediction | undefined {
  if (!call.revealed || !(call.window > 0) || !call.asset) return undefined;
  const slotAt = Math.ceil(call.revealedAt / HOUR_SECONDS) * HOUR_SECONDS;
  return {
    agent,
    slot: formatIsoHour(slotAt / HOUR_SECONDS),
    pair: call.asset,
    horizon_h: Math.max(1, Math.ceil(call.window / HOUR_SECONDS)),
    direction: call.direction,
    size: Math.min(100, Math.max(0, call.confidenceBps / 100)),
    slotAt,
  };
}
