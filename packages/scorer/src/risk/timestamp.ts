import { InvalidInputError } from "../errors";
import type { Timestamp } from "./types";

export const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** A timestamp as Unix seconds; refuses anything that is not a finite number or a zoned RFC 3339 string. */
export function toUnixSeconds(at: unknown, path: string): number {
  if (typeof at === "number" && Number.isFinite(at)) return at;
  if (typeof at === "string" && RFC3339.test(at)) {
    const ms = Date.parse(at);
    if (Number.isFinite(ms)) return ms / 1000;
  }
  throw new InvalidInputError(path, "must be Unix seconds or an RFC 3339 date-time with a zone");
}

export const SECONDS_PER_DAY = 86_400;

/** The UTC calendar day a timestamp falls on, counted from 1970-01-01. */
export function utcDay(at: Timestamp, path: string): number {
  return Math.floor(toUnixSeconds(at, path) / SECONDS_PER_DAY);
}
