import { AugurError } from "@augur/scorer";
import type { Kysely } from "kysely";
import { listModeRecords } from "../store/queries/modes";
import type { Database } from "../store/schema";
import { checkedDay, dayOf, daysBetween } from "./days";
import type { MethodologyNoticeBody } from "./records";
import { METHODOLOGY_NOTICE_DAYS } from "./timeline";

const DAY_SECONDS = 86_400;

/** The formula families whose version is chosen by date (docs/engine.md, "Formula versions"). */
export const FORMULA_FAMILIES = ["score", "risk", "stewardship", "referee"] as const;
export type FormulaFamily = (typeof FORMULA_FAMILIES)[number];

/** One formula version a build carries: its id (as every row it seals names it) and what computes it. */
export interface FormulaVersion<Impl> {
  readonly id: string;
  readonly impl: Impl;
}

/** A family's versions, oldest first. The first is the genesis version: in force without notice. */
export type FormulaVersions<Impl> = readonly [FormulaVersion<Impl>, ...FormulaVersion<Impl>[]];

/** A stored methodology notice as the registry reads it: what it names and when it was sealed. */
export interface FormulaNotice {
  readonly formula: string;
  /** The UTC date the formula applies from (its effective time is that date's 00:00 UTC). */
  readonly effective: string;
  /** The UTC date the notice was sealed into the log (its row's write time, not its own text). */
  readonly sealedOn: string;
}

/** A non-genesis version the build carries without a valid notice: a start refuses it. */
export class FormulaUnnoticedError extends AugurError {
  override readonly name = "FormulaUnnoticedError";
  constructor(message: string, details: Record<string, unknown>) {
    super("FORMULA_UNNOTICED", message, details);
  }
}

/** A version's implementation sealed rows naming another formula: storing them would mislabel them. */
export class FormulaMismatchError extends AugurError {
  override readonly name = "FormulaMismatchError";
  constructor(expected: string, named: string) {
    super("FORMULA_MISMATCH", `the version in force is ${expected}, but its rows name ${named}`, {
      expected,
      named,
    });
  }
}

/** 00:00 UTC of a `YYYY-MM-DD` date, unix seconds. */
export const effectiveTime = (day: string): number => checkedDay(day, "effective") * DAY_SECONDS;

/** Whether a notice was public long enough: sealed at least 14 days before its effective date. */
export const noticeGiven = (notice: FormulaNotice): boolean =>
  daysBetween(notice.sealedOn, notice.effective) >= METHODOLOGY_NOTICE_DAYS;

/**
 * Each formula's effective time, from the first valid notice naming it (write order). A later
 * notice cannot move it: rows sealed under the first date would otherwise change meaning.
 */
export function announcedFormulas(notices: readonly FormulaNotice[]): ReadonlyMap<string, number> {
  const announced = new Map<string, number>();
  for (const notice of notices) {
    if (noticeGiven(notice) && !announced.has(notice.formula))
      announced.set(notice.formula, effectiveTime(notice.effective));
  }
  return announced;
}

/** The version in force at `at`: the newest whose announced effective time is ≤ `at`, else the genesis. */
export function formulaInForce<Impl>(
  versions: FormulaVersions<Impl>,
  announced: ReadonlyMap<string, number>,
  at: number,
): FormulaVersion<Impl> {
  for (let i = versions.length - 1; i > 0; i--) {
    const from = announced.get(versions[i]!.id);
    if (from !== undefined && from <= at) return versions[i]!;
  }
  return versions[0];
}

/**
 * The versions in force over the times (`after`, `through`], each with the last second it covers:
 * a pass that seals rows for several times (stewardship days) runs each part with its own version.
 */
export function formulaPeriods<Impl>(
  versions: FormulaVersions<Impl>,
  announced: ReadonlyMap<string, number>,
  after: number,
  through: number,
): { readonly version: FormulaVersion<Impl>; readonly through: number }[] {
  const switches = [...new Set(announced.values())]
    .filter((t) => t > after && t <= through)
    .sort((a, b) => a - b);
  const periods: { version: FormulaVersion<Impl>; through: number }[] = [];
  for (const end of [...switches.map((t) => t - 1), through]) {
    const version = formulaInForce(versions, announced, end);
    const last = periods.at(-1);
    if (last?.version === version) last.through = end;
    else periods.push({ version, through: end });
  }
  return periods;
}

/** Why a non-genesis version may not run, or undefined when a valid notice covers it. */
export function missingNotice(formula: string, notices: readonly FormulaNotice[]): string | undefined {
  const named = notices.filter((n) => n.formula === formula);
  if (named.some(noticeGiven)) return undefined;
  const late = named[0];
  if (late === undefined) {
    return `refused: this build carries ${formula} but no methodology notice announces it (augur methodology announce --formula ${formula} --effective <a date at least ${METHODOLOGY_NOTICE_DAYS} days ahead>)`;
  }
  return `refused: this build carries ${formula} but its notice, sealed on ${late.sealedOn} for ${late.effective}, gives ${daysBetween(late.sealedOn, late.effective)} days' notice, not ${METHODOLOGY_NOTICE_DAYS}`;
}

/** Every stored methodology notice, in write order. */
export async function formulaNotices(db: Kysely<Database>): Promise<FormulaNotice[]> {
  return (await listModeRecords(db, "methodology")).map((row) => {
    const body = JSON.parse(row.body) as MethodologyNoticeBody;
    return { formula: body.formula, effective: body.effective, sealedOn: dayOf(row.created_at) };
  });
}

/**
 * The version of `versions` in force at `at`, from the store's notices. A family with only its
 * genesis version reads nothing.
 */
export async function formulaAt<Impl>(
  db: Kysely<Database>,
  versions: FormulaVersions<Impl>,
  at: number,
): Promise<FormulaVersion<Impl>> {
  if (versions.length === 1) return versions[0];
  return formulaInForce(versions, announcedFormulas(await formulaNotices(db)), at);
}

/**
 * The start check of `augur cycle`, `augur serve` and `npm start`: every non-genesis version the
 * build carries needs a stored notice sealed at least 14 days before its effective date, so a
 * deploy cannot switch a formula silently. A version announced for a later date is allowed: the
 * cycle runs the previous one until its effective time.
 */
export async function assertFormulasNoticed(
  db: Kysely<Database>,
  families: Readonly<Record<FormulaFamily, readonly string[]>>,
): Promise<void> {
  const later = FORMULA_FAMILIES.flatMap((family) => families[family].slice(1));
  if (later.length === 0) return;
  const notices = await formulaNotices(db);
  for (const formula of later) {
    const refusal = missingNotice(formula, notices);
    if (refusal !== undefined) throw new FormulaUnnoticedError(refusal, { formula });
  }
}
