import { InvalidInputError } from "../errors";
import { isHex32 } from "../hex";
import { isStyle, STYLES } from "./formula";
import { RepeatedTimes } from "./repeated-times";
import { DECIDERS, type SeasonInput } from "./types";

// Validates season.json as documented in schema/season.schema.json. Errors name the field and
// the row (`snapshots[12].nav: must be a positive decimal number`); the first problem wins.

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
const DECIMAL = /^-?(0|[1-9]\d*)(\.\d+)?$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

type Row = Record<string, unknown>;

function fail(path: string, problem: string): never {
  throw new InvalidInputError(path, problem);
}

function object(
  value: unknown,
  path: string,
  keys: readonly string[],
  optional: readonly string[] = [],
): Row {
  if (typeof value !== "object" || value === null || Array.isArray(value)) fail(path, "must be an object");
  const row = value as Row;
  for (const key of keys) if (!(key in row)) fail(`${path}.${key}`, "is required");
  for (const key in row)
    if (!keys.includes(key) && !optional.includes(key)) fail(`${path}.${key}`, "is not a known field");
  return row;
}

/** A row's optional `seal` (the stored record it was read from), checked when present. */
function optionalSeal(row: Row, path: string): void {
  if ("seal" in row && !isHex32(row.seal))
    fail(`${path}.seal`, "must be 0x followed by 64 lowercase hex digits");
}

function array(value: unknown, path: string): readonly unknown[] {
  if (!Array.isArray(value)) fail(path, "must be an array");
  return value;
}

function text(value: unknown, path: string): string {
  if (typeof value !== "string" || value.length === 0) fail(path, "must be a non-empty string");
  if (LONE_SURROGATE.test(value)) fail(path, "must be valid Unicode (lone surrogate)");
  return value;
}

// A season repeats the same few thousand timestamps across every agent; parsing each once
// matters at millions of rows. Bounded, so a pathological file cannot grow it without limit.
const parsedTimes = new Map<string, number>();
const PARSED_TIMES_LIMIT = 1 << 16;

/** Milliseconds since the epoch of an ISO-8601 UTC time such as 2026-11-30T07:00:00Z. */
export function parseTime(value: unknown, path: string): number {
  if (typeof value === "string") {
    const cached = parsedTimes.get(value);
    if (cached !== undefined) return cached;
  }
  const ms = typeof value === "string" && ISO_UTC.test(value) ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) fail(path, "must be an ISO-8601 UTC time like 2026-11-30T07:00:00Z");
  if (parsedTimes.size >= PARSED_TIMES_LIMIT) parsedTimes.clear();
  parsedTimes.set(value as string, ms);
  return ms;
}

/** The value of a decimal number given as a JSON number or a decimal string. */
export function decimalValue(value: unknown): number {
  if (typeof value === "number") return value;
  if (typeof value === "string" && DECIMAL.test(value)) return Number(value);
  return NaN;
}

function decimal(value: unknown, path: string, positive: boolean): number {
  const n = decimalValue(value);
  if (!Number.isFinite(n)) fail(path, "must be a decimal number");
  // A JSON number is sealed as given: one a seal cannot hold exactly (I-JSON) is refused here.
  if (typeof value === "number" && Number.isInteger(n) && !Number.isSafeInteger(n))
    fail(path, "must be a decimal string when beyond ±(2^53 − 1) (I-JSON, RFC 7493)");
  if (positive && !(n > 0)) fail(path, "must be a positive decimal number");
  return n;
}

function fraction(value: unknown, path: string): number {
  if (typeof value !== "number" || !(value >= 0 && value <= 1)) fail(path, "must be a number in [0, 1]");
  return value;
}

function oneOf<T extends string>(value: unknown, path: string, allowed: readonly T[]): T {
  if (!allowed.includes(value as T)) fail(path, `must be one of ${allowed.map((a) => `"${a}"`).join(", ")}`);
  return value as T;
}

/** Checks a row's agent field; the season check also requires it to be listed in `agents`. */
export type AgentRule = (value: unknown, path: string) => string;

// The per-record rules below are the scorer's whole judgement of one record: ingestion runs the
// very same functions (through @augur/records), so nothing it accepts can be refused here later.

/** One snapshot row (all but the duplicate-time rule, which needs the others); returns its agent and time. */
export function checkSnapshotRow(
  value: unknown,
  p: string,
  agentRule: AgentRule = text,
): { agent: string; at: number } {
  const row = object(value, p, ["agent", "at", "nav", "flow", "invested"], ["seal"]);
  optionalSeal(row, p);
  const agent = agentRule(row.agent, `${p}.agent`);
  const at = parseTime(row.at, `${p}.at`);
  decimal(row.nav, `${p}.nav`, true);
  decimal(row.flow, `${p}.flow`, false);
  fraction(row.invested, `${p}.invested`);
  return { agent, at };
}

/** One decision row. */
export function checkDecisionRow(value: unknown, p: string, agentRule: AgentRule = text): void {
  const row = object(value, p, ["agent", "at", "decider", "asset", "action"], ["seal"]);
  optionalSeal(row, p);
  agentRule(row.agent, `${p}.agent`);
  parseTime(row.at, `${p}.at`);
  oneOf(row.decider, `${p}.decider`, DECIDERS);
  text(row.asset, `${p}.asset`);
  text(row.action, `${p}.action`);
}

/** One trade row. */
export function checkTradeRow(value: unknown, p: string, agentRule: AgentRule = text): void {
  const row = object(value, p, ["agent", "at", "asset", "side", "quantity", "price"], ["seal"]);
  optionalSeal(row, p);
  agentRule(row.agent, `${p}.agent`);
  parseTime(row.at, `${p}.at`);
  text(row.asset, `${p}.asset`);
  oneOf(row.side, `${p}.side`, ["buy", "sell"] as const);
  decimal(row.quantity, `${p}.quantity`, true);
  decimal(row.price, `${p}.price`, true);
}

/** Checks a parsed season.json and returns it typed; throws InvalidInputError naming field and row. */
export function validateSeasonInput(raw: unknown): SeasonInput {
  const root = object(
    raw,
    "$",
    ["season", "as_of", "agents", "snapshots", "decisions", "trades", "calls", "prior_scores"],
    ["inputs_log_size"],
  );
  if (root.inputs_log_size !== undefined && root.inputs_log_size !== null) {
    const size = root.inputs_log_size;
    if (typeof size !== "number" || !Number.isSafeInteger(size) || size < 0)
      fail("inputs_log_size", "must be null or an integer ≥ 0");
  }
  const season = object(root.season, "season", ["id", "start", "end"]);
  text(season.id, "season.id");
  const start = parseTime(season.start, "season.start");
  const end = parseTime(season.end, "season.end");
  if (end <= start) fail("season.end", "must be after season.start");
  const asOf = parseTime(root.as_of, "as_of");
  if (asOf < start) fail("as_of", "must not be before season.start");

  const agentIds = new Set<string>();
  array(root.agents, "agents").forEach((value, i) => {
    const p = `agents[${i}]`;
    const agent = object(value, p, ["id", "creator", "style", "active"]);
    const id = text(agent.id, `${p}.id`);
    if (agentIds.has(id)) fail(`${p}.id`, `duplicate agent id "${id}"`);
    agentIds.add(id);
    text(agent.creator, `${p}.creator`);
    if (!isStyle(agent.style)) oneOf(agent.style, `${p}.style`, STYLES);
    if (typeof agent.active !== "boolean") fail(`${p}.active`, "must be true or false");
  });
  const knownAgent = (value: unknown, path: string): string => {
    const id = text(value, path);
    if (!agentIds.has(id)) fail(path, `unknown agent "${id}" (not in agents)`);
    return id;
  };

  const snapshots = array(root.snapshots, "snapshots");
  // Rows before the current one are validated, so their agent and time can be read back as is.
  const repeated = new RepeatedTimes((j) => {
    const row = snapshots[j] as Row;
    return [row.agent as string, parseTime(row.at, `snapshots[${j}].at`)];
  });
  snapshots.forEach((value, i) => {
    const p = `snapshots[${i}]`;
    const { agent, at } = checkSnapshotRow(value, p, knownAgent);
    if (repeated.repeats(agent, at)) fail(`${p}.at`, `duplicate snapshot time for agent "${agent}"`);
  });
  array(root.decisions, "decisions").forEach((value, i) =>
    checkDecisionRow(value, `decisions[${i}]`, knownAgent),
  );
  array(root.trades, "trades").forEach((value, i) => checkTradeRow(value, `trades[${i}]`, knownAgent));

  array(root.calls, "calls").forEach((value, i) => {
    const p = `calls[${i}]`;
    const row = object(value, p, ["agent", "resolved_at", "confidence", "outcome"], ["seal"]);
    optionalSeal(row, p);
    knownAgent(row.agent, `${p}.agent`);
    parseTime(row.resolved_at, `${p}.resolved_at`);
    fraction(row.confidence, `${p}.confidence`);
    oneOf(row.outcome, `${p}.outcome`, ["hit", "miss", "void"] as const);
  });

  array(root.prior_scores, "prior_scores").forEach((value, i) => {
    const p = `prior_scores[${i}]`;
    const row = object(value, p, ["agent", "season_id", "performance", "seal", "sealed_at"]);
    // A prior row may belong to an agent no longer listed; it then feeds nothing.
    text(row.agent, `${p}.agent`);
    text(row.season_id, `${p}.season_id`);
    if (typeof row.performance !== "number" || !(row.performance >= 0 && row.performance <= 100))
      fail(`${p}.performance`, "must be a number in [0, 100]");
    if (!isHex32(row.seal)) fail(`${p}.seal`, "must be 0x followed by 64 lowercase hex digits");
    parseTime(row.sealed_at, `${p}.sealed_at`);
  });

  return raw as SeasonInput;
}
