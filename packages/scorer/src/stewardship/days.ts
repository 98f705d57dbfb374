import { InvalidInputError } from "../errors";

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days since 1970-01-01 of a `YYYY-MM-DD` UTC date, or undefined if it is not a real date. */
export function parseDay(text: string): number | undefined {
  const match = DAY.exec(text);
  if (!match) return undefined;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const ms = Date.UTC(year, month - 1, day);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) {
    return undefined;
  }
  return ms / 86_400_000;
}

/** Checks that `days` are real dates, one per day with no gap; returns their day numbers. */
export function consecutiveDays(days: readonly string[], path: (i: number) => string): number[] {
  return days.map((text, i) => {
    const day = parseDay(text);
    if (day === undefined) throw new InvalidInputError(path(i), "must be a YYYY-MM-DD date");
    if (i > 0 && day !== parseDay(days[i - 1]!)! + 1) {
      throw new InvalidInputError(
        path(i),
        `must be the day after ${days[i - 1]} (one measurement a day, no gaps)`,
      );
    }
    return day;
  });
}
