import { InvalidInputError, parseDay } from "@augur/scorer";

const DAY_SECONDS = 86_400;

/** The UTC date (`YYYY-MM-DD`) of a unix time in seconds: the day a mode record is declared on. */
export function dayOf(unixSeconds: number): string {
  return new Date(Math.floor(unixSeconds / DAY_SECONDS) * DAY_SECONDS * 1000).toISOString().slice(0, 10);
}

/** `day` moved by `count` days (negative goes back). */
export function addDays(day: string, count: number): string {
  return dayOf((checkedDay(day, "day") + count) * DAY_SECONDS);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return checkedDay(to, "to") - checkedDay(from, "from");
}

/** The day number of a `YYYY-MM-DD` date, or an InvalidInputError naming `path`. */
export function checkedDay(text: string, path: string): number {
  const day = parseDay(text);
  if (day === undefined) throw new InvalidInputError(path, `must be a YYYY-MM-DD date, not '${text}'`);
  return day;
}
