import { InvalidInputError } from "../errors";

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function requireObject(value: unknown, path: string): Record<string, unknown> {
  if (!isPlainObject(value)) throw new InvalidInputError(path, "must be an object");
  return value;
}

/** Refuses unknown keys (a typo must not silently read as "unknown") and missing ones. */
export function requireExactKeys(
  object: Record<string, unknown>,
  keys: readonly string[],
  path: string,
): void {
  for (const key of Object.keys(object)) {
    if (!keys.includes(key)) {
      throw new InvalidInputError(`${path}.${key}`, `is not a known field (expected ${keys.join(", ")})`);
    }
  }
  for (const key of keys) {
    if (!(key in object)) throw new InvalidInputError(`${path}.${key}`, "is required (null where unknown)");
  }
}

export function requireString(value: unknown, path: string): string {
  if (typeof value !== "string" || value.length === 0) {
    throw new InvalidInputError(path, "must be a non-empty string");
  }
  return value;
}

export interface NumberRange {
  readonly min?: number;
  readonly max?: number;
  /** The minimum itself is not allowed. */
  readonly above?: boolean;
}

function describe(range: NumberRange): string {
  const { min, max, above } = range;
  if (min !== undefined && max !== undefined) return `a number in [${min}, ${max}]`;
  if (min !== undefined) return above ? `a number > ${min}` : `a number ≥ ${min}`;
  if (max !== undefined) return `a number ≤ ${max}`;
  return "a finite number";
}

function inRange(value: unknown, range: NumberRange): value is number {
  if (typeof value !== "number" || !Number.isFinite(value)) return false;
  if (range.min !== undefined && (range.above ? value <= range.min : value < range.min)) return false;
  return range.max === undefined || value <= range.max;
}

export function requireNumber(value: unknown, path: string, range: NumberRange = {}): number {
  if (!inRange(value, range)) throw new InvalidInputError(path, `must be ${describe(range)}`);
  return value;
}

export function requireNumberOrNull(value: unknown, path: string, range: NumberRange = {}): number | null {
  if (value === null) return null;
  if (!inRange(value, range)) throw new InvalidInputError(path, `must be ${describe(range)} or null`);
  return value;
}

export function requireArray(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw new InvalidInputError(path, "must be an array");
  return value;
}

export function requireArrayOrNull(value: unknown, path: string): unknown[] | null {
  if (value === null) return null;
  if (!Array.isArray(value)) throw new InvalidInputError(path, "must be an array or null");
  return value;
}
