import { InvalidInputError } from "../errors";
import { type Hour, parseIsoHour } from "./hours";

export type Direction = "up" | "down";

/** One cached hourly close of a pair. */
export interface RefereeClose {
  readonly at: string;
  readonly close: number;
}

/** One call of an agent: from `slot`, over `horizon_h` hours, `size` in 0..100. */
export interface RefereePrediction {
  readonly agent: string;
  readonly slot: string;
  readonly pair: string;
  readonly horizon_h: number;
  readonly direction: Direction;
  readonly size: number;
}

/** The pinned input file of the referee (schema/referee-input.schema.json). */
export interface RefereeInput {
  readonly epoch: string | number;
  readonly closes: Readonly<Record<string, readonly RefereeClose[]>>;
  readonly predictions: readonly RefereePrediction[];
}

/** A validated prediction with its slot as an hour and its row in the input. */
export interface ParsedPrediction extends RefereePrediction {
  readonly row: number;
  readonly slotHour: Hour;
}

/** A validated input, indexed for the referee: closes by pair, then by hour. */
export interface ParsedRefereeInput {
  readonly epoch: string | number;
  /** The epoch as it enters the cohort seed: the string itself, or the integer in decimal. */
  readonly epochText: string;
  readonly closes: ReadonlyMap<string, ReadonlyMap<Hour, number>>;
  readonly predictions: readonly ParsedPrediction[];
}

export const INPUT_FIELDS = ["epoch", "closes", "predictions"] as const;
export const CLOSE_FIELDS = ["at", "close"] as const;
export const PREDICTION_FIELDS = ["agent", "slot", "pair", "horizon_h", "direction", "size"] as const;
export const DIRECTIONS: readonly Direction[] = ["up", "down"];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Exactly the listed fields, each present: typos like `horizon` are refused, not ignored. */
function checkFields(value: unknown, fields: readonly string[], path: string): Record<string, unknown> {
  if (!isPlainObject(value)) throw new InvalidInputError(path, "must be an object");
  const field = (key: string) => (path === "$" ? key : `${path}.${key}`);
  for (const key of Object.keys(value)) {
    if (!fields.includes(key)) throw new InvalidInputError(field(key), "unknown field");
  }
  for (const key of fields) {
    if (!Object.hasOwn(value, key)) throw new InvalidInputError(field(key), "is missing");
  }
  return value;
}

function nonEmptyString(value: unknown, path: string): string {
  if (typeof value !== "string" || value.length === 0) {
    throw new InvalidInputError(path, "must be a non-empty string");
  }
  return value;
}

function isoHour(value: unknown, path: string): Hour {
  const hour = typeof value === "string" ? parseIsoHour(value) : undefined;
  if (hour === undefined) {
    throw new InvalidInputError(path, "must be an ISO-8601 UTC hour such as 2026-11-30T07:00:00Z");
  }
  return hour;
}

function parseEpoch(value: unknown): string {
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new InvalidInputError("epoch", "must be a non-negative integer or a string");
    }
    return String(value);
  }
  const text = nonEmptyString(value, "epoch");
  // The seed text is OAIA|<epoch>|<agent>: a bar in the epoch would make it ambiguous.
  if (text.includes("|")) throw new InvalidInputError("epoch", 'must not contain "|"');
  return text;
}

function parseCloses(value: unknown): Map<string, Map<Hour, number>> {
  if (!isPlainObject(value)) throw new InvalidInputError("closes", "must be an object of pair → closes");
  const closes = new Map<string, Map<Hour, number>>();
  for (const [pair, rows] of Object.entries(value)) {
    const path = `closes[${JSON.stringify(pair)}]`;
    if (pair.length === 0) throw new InvalidInputError(path, "pair name must be non-empty");
    if (!Array.isArray(rows)) throw new InvalidInputError(path, "must be an array of { at, close }");
    const byHour = new Map<Hour, number>();
    const rowOfHour = new Map<Hour, number>();
    rows.forEach((row: unknown, i) => {
      const fields = checkFields(row, CLOSE_FIELDS, `${path}[${i}]`);
      const at = isoHour(fields.at, `${path}[${i}].at`);
      const close = fields.close;
      if (typeof close !== "number" || !Number.isFinite(close) || close <= 0) {
        throw new InvalidInputError(`${path}[${i}].close`, "must be a finite number above 0");
      }
      const earlier = rowOfHour.get(at);
      if (earlier !== undefined) {
        throw new InvalidInputError(`${path}[${i}].at`, `repeats the hour of ${path}[${earlier}]`);
      }
      rowOfHour.set(at, i);
      byHour.set(at, close);
    });
    closes.set(pair, byHour);
  }
  return closes;
}

function parsePrediction(
  row: unknown,
  i: number,
  closes: ReadonlyMap<string, ReadonlyMap<Hour, number>>,
): ParsedPrediction {
  const path = `predictions[${i}]`;
  const fields = checkFields(row, PREDICTION_FIELDS, path);
  const agent = nonEmptyString(fields.agent, `${path}.agent`);
  const pair = nonEmptyString(fields.pair, `${path}.pair`);
  const pairCloses = closes.get(pair);
  if (!pairCloses) throw new InvalidInputError(`${path}.pair`, `no closes for ${JSON.stringify(pair)}`);
  const slotHour = isoHour(fields.slot, `${path}.slot`);
  if (!pairCloses.has(slotHour)) {
    throw new InvalidInputError(`${path}.slot`, `not an hour present in closes[${JSON.stringify(pair)}]`);
  }
  const horizon = fields.horizon_h;
  if (typeof horizon !== "number" || !Number.isSafeInteger(horizon) || horizon < 1) {
    throw new InvalidInputError(`${path}.horizon_h`, "must be a whole number of hours, 1 or more");
  }
  const direction = fields.direction;
  if (direction !== "up" && direction !== "down") {
    throw new InvalidInputError(`${path}.direction`, 'must be "up" or "down"');
  }
  const size = fields.size;
  if (typeof size !== "number" || !Number.isFinite(size) || size < 0 || size > 100) {
    throw new InvalidInputError(`${path}.size`, "must be a number from 0 to 100");
  }
  return { agent, slot: fields.slot as string, pair, horizon_h: horizon, direction, size, row: i, slotHour };
}

/** Validates the pinned input file; every refusal names the field and row. */
export function parseRefereeInput(value: unknown): ParsedRefereeInput {
  const top = checkFields(value, INPUT_FIELDS, "$");
  const epochText = parseEpoch(top.epoch);
  const closes = parseCloses(top.closes);
  if (!Array.isArray(top.predictions)) throw new InvalidInputError("predictions", "must be an array");
  const predictions = top.predictions.map((row: unknown, i) => parsePrediction(row, i, closes));
  return { epoch: top.epoch as string | number, epochText, closes, predictions };
}
