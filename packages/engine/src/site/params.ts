import { SitePageError } from "./errors";

const ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** A season or agent id from the URL, or a 400 page naming what was wrong. */
export function idParam(value: unknown, what: string): string {
  if (typeof value !== "string" || !ID.test(value)) {
    throw new SitePageError(
      400,
      "BAD_ID",
      `${what} must be a lowercase id (letters, digits, - and _), got ${JSON.stringify(String(value ?? "")).slice(0, 80)}`,
    );
  }
  return value;
}

/** A page number 1 … max from the URL (absent: 1). */
export function pageParam(value: unknown, max = 100_000): number {
  if (value === undefined || value === "") return 1;
  if (typeof value !== "string" || !/^\d{1,6}$/.test(value) || Number(value) < 1 || Number(value) > max) {
    throw new SitePageError(
      400,
      "BAD_PAGE",
      `page must be a whole number from 1 to ${max}, got ${JSON.stringify(String(value)).slice(0, 40)}`,
    );
  }
  return Number(value);
}

/** One of a fixed set of words from the URL (absent: the fallback). */
export function choiceParam<T extends string>(
  value: unknown,
  choices: readonly T[],
  fallback: T,
  what: string,
): T {
  if (value === undefined || value === "") return fallback;
  if (typeof value !== "string" || !choices.includes(value as T)) {
    throw new SitePageError(400, "BAD_PARAMETER", `${what} must be one of ${choices.join(", ")}`);
  }
  return value as T;
}
