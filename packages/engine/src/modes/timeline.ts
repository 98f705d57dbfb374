import type { DailyTriggerState, Hex32 } from "@augur/scorer";
import { addDays } from "./days";

/** The engine's operating mode; `archived` follows `wind-down` once the final anchor is mined. */
export type Mode = "active" | "maintenance" | "wind-down" | "archived";

export const MODES: readonly Mode[] = ["active", "maintenance", "wind-down", "archived"];

/** What an operator notice may ask for: maintenance, wind-down, or lifting an operator maintenance. */
export type NoticeTarget = "active" | "maintenance" | "wind-down";

export const NOTICE_TARGETS: readonly NoticeTarget[] = ["active", "maintenance", "wind-down"];

/** An operator decision takes effect only this many days after its notice record (the seed's rule). */
export const OPERATOR_NOTICE_DAYS = 30;

/** A formula version is announced at least this many days before it applies. */
export const METHODOLOGY_NOTICE_DAYS = 14;

/** One sealed daily stewardship record, as the engine's stewardship store hands it over. */
export interface StewardshipDay {
  readonly day: string;
  readonly seal: Hex32;
  readonly body: DailyTriggerState;
}

/** A sealed operator notice: the mode asked for, the day it was given, and why. */
export interface OperatorNotice {
  readonly seal: Hex32;
  /** The UTC date the notice record was written; it takes effect 30 days later. */
  readonly noticed: string;
  readonly to: NoticeTarget;
  readonly reason: string;
}

/** The anchor that covered every record once the wind-down was declared. */
export interface FinalAnchor {
  /** The UTC date the cycle saw it mined. */
  readonly day: string;
  readonly anchorIndex: number;
  readonly treeSize: number;
  readonly root: Hex32;
  readonly chainId: number;
  readonly registry: string;
  readonly txHash: Hex32;
  readonly blockNumber: number;
}

/** Why the mode changed: a stewardship trigger (with its day record), the operator, or the final anchor. */
export type ModeCause =
  | {
      readonly kind: "trigger";
      /** `volume-recovered` ends a volume maintenance; `both` is holders and volume in one window. */
      readonly trigger: "volume" | "holders" | "both" | "volume-recovered";
      readonly day: string;
      readonly seal: Hex32;
    }
  | {
      readonly kind: "operator";
      readonly notice: Hex32;
      readonly noticed: string;
      readonly reason: string;
    }
  | ({ readonly kind: "final-anchor" } & Omit<FinalAnchor, "day">);

/** One change of mode, in force from `since` (a UTC date) until the next one. */
export interface ModeTransition {
  readonly mode: Mode;
  readonly since: string;
  readonly cause: ModeCause;
}

export interface TimelineInput {
  readonly days: readonly StewardshipDay[];
  readonly notices: readonly OperatorNotice[];
  /** The last date to decide (the cycle's today): later days and notice effects are ignored. */
  readonly through: string;
  /** Present once the final anchor of a wind-down is mined. */
  readonly finalAnchor?: FinalAnchor;
}

/** The date an operator notice takes effect. */
export function noticeEffective(notice: Pick<OperatorNotice, "noticed">): string {
  return addDays(notice.noticed, OPERATOR_NOTICE_DAYS);
}

/** Wind-down and archived never revert: no trigger or notice changes them (archived aside). */
export const isFinalMode = (mode: Mode): boolean => mode === "wind-down" || mode === "archived";

/**
 * Decides the mode timeline, date by date, from the sealed daily stewardship states and the
 * operator notices. On each date the notices taking effect apply first, then the day's state:
 *
 * - wind-down (holder trigger, or both) → `wind-down`, final; an operator wind-down notice too;
 * - maintenance (volume trigger) while active → `maintenance`; it ends (→ `active`) on the first
 *   day the state is normal again, i.e. organic volume recovered;
 * - an operator maintenance notice makes the maintenance the operator's: volume recovering does
 *   not end it, only an operator notice `active` does (30 days later, like every notice);
 * - `archived` follows `wind-down` once its final anchor is given.
 *
 * Returns only changes (the start, before any, is `active`), oldest first. Pure: same inputs,
 * same timeline.
 */
export function modeTimeline(input: TimelineInput): ModeTransition[] {
  const byDate = new Map<string, { notices: OperatorNotice[]; day?: StewardshipDay }>();
  const at = (date: string) => {
    let entry = byDate.get(date);
    if (!entry) byDate.set(date, (entry = { notices: [] }));
    return entry;
  };
  for (const day of input.days) if (day.day <= input.through) at(day.day).day = day;
  const notices = [...input.notices].sort((a, b) =>
    a.noticed !== b.noticed
      ? a.noticed < b.noticed
        ? -1
        : 1
      : a.seal < b.seal
        ? -1
        : a.seal > b.seal
          ? 1
          : 0,
  );
  for (const notice of notices) {
    const effective = noticeEffective(notice);
    if (effective <= input.through) at(effective).notices.push(notice);
  }

  const out: ModeTransition[] = [];
  // Asserted, not annotated: `move` reassigns both inside a closure, which narrowing cannot see.
  let mode = "active" as Mode;
  let cause = undefined as ModeCause | undefined;
  const move = (next: Mode, since: string, why: ModeCause) => {
    out.push({ mode: next, since, cause: why });
    mode = next;
    cause = why;
  };
  for (const date of [...byDate.keys()].sort()) {
    const entry = byDate.get(date)!;
    for (const notice of entry.notices) {
      if (isFinalMode(mode)) break;
      const why: ModeCause = {
        kind: "operator",
        notice: notice.seal,
        noticed: notice.noticed,
        reason: notice.reason,
      };
      if (notice.to === "wind-down") move("wind-down", date, why);
      else if (notice.to === "maintenance" && !(mode === "maintenance" && cause?.kind === "operator"))
        move("maintenance", date, why);
      else if (notice.to === "active" && mode === "maintenance" && cause?.kind === "operator")
        move("active", date, why);
      // Any other notice asks for what is already in force (or lifts a trigger's maintenance,
      // which only the volume can end): it changes nothing.
    }
    const day = entry.day;
    if (!day || isFinalMode(mode)) continue;
    const seal = day.seal;
    const state = day.body.state;
    if (state === "wind-down") {
      move("wind-down", date, {
        kind: "trigger",
        trigger: day.body.bothTrigger ? "both" : "holders",
        day: day.day,
        seal,
      });
    } else if (state === "maintenance" && mode === "active") {
      move("maintenance", date, { kind: "trigger", trigger: "volume", day: day.day, seal });
    } else if (state === "normal" && mode === "maintenance" && cause?.kind === "trigger") {
      move("active", date, { kind: "trigger", trigger: "volume-recovered", day: day.day, seal });
    }
  }
  const final = input.finalAnchor;
  if (mode === "wind-down" && final && final.day >= out[out.length - 1]!.since) {
    const { day, ...anchor } = final;
    move("archived", day, { kind: "final-anchor", ...anchor });
  }
  return out;
}

/** The mode in force on `date` according to `timeline` (`active` before its first change). */
export function modeOn(timeline: readonly ModeTransition[], date: string): Mode {
  let mode: Mode = "active";
  for (const t of timeline) if (t.since <= date) mode = t.mode;
  return mode;
}
