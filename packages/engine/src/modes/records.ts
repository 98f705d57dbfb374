import { InvalidInputError, type Hex32 } from "@augur/scorer";
import { addDays, checkedDay, daysBetween } from "./days";
import { NoticeRefusedError } from "./errors";
import {
  METHODOLOGY_NOTICE_DAYS,
  NOTICE_TARGETS,
  OPERATOR_NOTICE_DAYS,
  type Mode,
  type ModeCause,
  type NoticeTarget,
} from "./timeline";

export const MODE_FORMAT = "augur-mode/v1";
export const NOTICE_FORMAT = "augur-notice/v1";

/** A sealed mode record: in force from `since`, written (declared publicly) on `declared`. */
export interface ModeBody {
  readonly format: typeof MODE_FORMAT;
  readonly mode: Mode;
  readonly since: string;
  readonly declared: string;
  readonly cause: ModeCause;
  /** The seal of the mode record it follows (null for the first): the modes form a hash chain. */
  readonly previous: Hex32 | null;
}

/** A sealed operator notice: the mode asked for takes effect `effective`, 30 days after `noticed`. */
export interface ModeNoticeBody {
  readonly format: typeof NOTICE_FORMAT;
  readonly notice: "mode";
  readonly to: NoticeTarget;
  readonly reason: string;
  readonly noticed: string;
  readonly effective: string;
}

/** A sealed methodology notice: formula `formula` applies to scores from `effective` on, never before. */
export interface MethodologyNoticeBody {
  readonly format: typeof NOTICE_FORMAT;
  readonly notice: "methodology";
  readonly formula: string;
  readonly reason: string;
  readonly announced: string;
  readonly effective: string;
}

/** A formula version as the methodology names them: `augur-score/v2`, `risk-score/v1`, … */
export const FORMULA_PATTERN = /^[a-z][a-z0-9-]{0,40}\/v[0-9]{1,4}$/;

const REASON_MAX = 500;

/** One line of free text, at most 500 characters: a reason, or the last words. */
export function checkedReason(reason: string | undefined, path: string): string {
  const text = (reason ?? "").trim();
  if (text.length === 0) throw new InvalidInputError(path, "is required (say why, in one line)");
  if (text.length > REASON_MAX) throw new InvalidInputError(path, `must be at most ${REASON_MAX} characters`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(text)) throw new InvalidInputError(path, "must be one line of text");
  return text;
}

/** The notice record for an operator decision given on `today`; it takes effect 30 days later. */
export function modeNoticeBody(to: string, reason: string | undefined, today: string): ModeNoticeBody {
  if (!(NOTICE_TARGETS as readonly string[]).includes(to)) {
    throw new InvalidInputError("to", `must be one of ${NOTICE_TARGETS.join(", ")}, not '${to}'`);
  }
  checkedDay(today, "today");
  return {
    format: NOTICE_FORMAT,
    notice: "mode",
    to: to as NoticeTarget,
    reason: checkedReason(reason, "reason"),
    noticed: today,
    effective: addDays(today, OPERATOR_NOTICE_DAYS),
  };
}

/**
 * The notice record of a new formula version announced on `today`, refused unless `effective`
 * is at least 14 days ahead: a methodology change is public before it applies, and applies
 * only forward (scores already sealed keep the formula they name).
 */
export function methodologyNoticeBody(
  formula: string,
  effective: string,
  today: string,
  reason?: string,
): MethodologyNoticeBody {
  if (!FORMULA_PATTERN.test(formula)) {
    throw new InvalidInputError("formula", `must look like augur-score/v2 (name/vN), not '${formula}'`);
  }
  checkedDay(effective, "effective");
  const ahead = daysBetween(today, effective);
  if (ahead < METHODOLOGY_NOTICE_DAYS) {
    throw new NoticeRefusedError(
      `a methodology change needs ${METHODOLOGY_NOTICE_DAYS} days' notice: ${formula} announced on ${today} can apply from ${addDays(today, METHODOLOGY_NOTICE_DAYS)} at the earliest, not ${effective}`,
      { formula, effective, today },
    );
  }
  return {
    format: NOTICE_FORMAT,
    notice: "methodology",
    formula,
    reason: reason === undefined ? `${formula} applies from ${effective}` : checkedReason(reason, "reason"),
    announced: today,
    effective,
  };
}
