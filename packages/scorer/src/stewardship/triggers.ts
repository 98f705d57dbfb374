import { InvalidInputError } from "../errors";
import { STEWARDSHIP_V1, type StewardshipConstants } from "./constants";
import { consecutiveDays } from "./days";

/** What the monitor measured at one epoch close. */
export interface DailyMeasurement {
  readonly day: string;
  readonly holders: number;
  readonly organicVolumeUsd: number;
}

export type StewardshipState = "normal" | "maintenance" | "wind-down";

/** The day's measured values, every trigger's state and the resulting project state. */
export interface DailyTriggerState extends DailyMeasurement {
  /** Holders have exceeded 100 on this day or an earlier one: the holder trigger can fire. */
  readonly holdersArmed: boolean;
  /** Holders at the start of the 30-day window ending today (null before 30 measurements). */
  readonly holdersWindowStart: number | null;
  readonly holdersTrigger: boolean;
  /** Consecutive days, ending today, with organic volume under the floor. */
  readonly volumeDaysBelow: number;
  readonly volumeTrigger: boolean;
  /** Both conditions met on days inside the same 30-day window ending today. */
  readonly bothTrigger: boolean;
  readonly state: StewardshipState;
  /** First day of the current state (null while normal). */
  readonly stateSince: string | null;
}

/** Net decline of at least `bps` from start to end, in exact integer arithmetic. */
export function declinedBy(start: number, end: number, bps: bigint): boolean {
  return start > 0 && (BigInt(start) - BigInt(end)) * 10_000n >= bps * BigInt(start);
}

function checkMeasurements(series: readonly DailyMeasurement[]): void {
  consecutiveDays(
    series.map((m) => m.day),
    (i) => `measurements[${i}].day`,
  );
  series.forEach((m, i) => {
    if (!Number.isSafeInteger(m.holders) || m.holders < 0) {
      throw new InvalidInputError(`measurements[${i}].holders`, "must be a whole number, 0 or more");
    }
    if (!Number.isFinite(m.organicVolumeUsd) || m.organicVolumeUsd < 0) {
      throw new InvalidInputError(
        `measurements[${i}].organicVolumeUsd`,
        "must be a finite number, 0 or more",
      );
    }
  });
}

/**
 * Replays the daily measurements through the kill rules. The window ending on day d is the 30
 * measurements d−29 … d; holders fire when the count fell by ≥ 15 % from its first to its last
 * day, once holders have exceeded 100 on some day ≤ d; volume fires on the 30th consecutive
 * day under $500. Wind-down is final; maintenance lasts while the volume condition holds.
 */
export function stewardshipStates(
  series: readonly DailyMeasurement[],
  rules: StewardshipConstants = STEWARDSHIP_V1,
): DailyTriggerState[] {
  checkMeasurements(series);
  const out: DailyTriggerState[] = [];
  let armed = false;
  let daysBelow = 0;
  let lastHoldersDay = -Infinity;
  let lastVolumeDay = -Infinity;
  series.forEach((m, d) => {
    armed ||= m.holders > rules.holdersArmAbove;
    const start = d >= rules.windowDays - 1 ? series[d - rules.windowDays + 1]!.holders : null;
    const holdersTrigger = armed && start !== null && declinedBy(start, m.holders, rules.holdersDeclineBps);
    daysBelow = m.organicVolumeUsd < rules.volumeFloorUsd ? daysBelow + 1 : 0;
    const volumeTrigger = daysBelow >= rules.volumeRunDays;
    if (holdersTrigger) lastHoldersDay = d;
    if (volumeTrigger) lastVolumeDay = d;
    const windowStart = d - rules.windowDays + 1;
    const bothTrigger = lastHoldersDay >= windowStart && lastVolumeDay >= windowStart;

    const previous = out[d - 1];
    let state: StewardshipState;
    if (previous?.state === "wind-down" || holdersTrigger || bothTrigger) state = "wind-down";
    else if (volumeTrigger) state = "maintenance";
    else state = "normal";
    const stateSince = state === "normal" ? null : previous?.state === state ? previous.stateSince : m.day;
    out.push({
      ...m,
      holdersArmed: armed,
      holdersWindowStart: start,
      holdersTrigger,
      volumeDaysBelow: daysBelow,
      volumeTrigger,
      bothTrigger,
      state,
      stateSince,
    });
  });
  return out;
}
