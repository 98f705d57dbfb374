import { canonicalJson, type Hex32, MEASURED_TRADE_FORMAT, sha256, toHex32 } from "@augur/scorer";
import { AgentRecords, INPUT_KINDS } from "../store/agent-records";
import {
  enumerateLog,
  fetchInputs,
  fetchRecordBody,
  fetchSeasonWindow,
  type ServedInput,
  type ServedLeaf,
} from "./deep-responses";
import type { HttpOptions } from "./http";
import { hasPooledMarks, pooledTotalProblems, SeasonPooledSums } from "./pooled";

/** One check of `augur verify --deep`, printed as passed or FAILED. */
export interface DeepCheck {
  readonly name: string;
  readonly passed: boolean;
  readonly detail: string;
}

/** What re-scoring one agent needs besides its records: the season, the clock and its creator inputs. */
export interface RescoreRequest {
  readonly seasonId: string;
  readonly startsAt: number;
  readonly endsAt: number;
  readonly asOf: number;
  readonly agent: { readonly agentId: string; readonly creator: string; readonly style: string };
  /** The sealed score rows of the creator's other agents, as the manifest names them. */
  readonly creatorInputs: readonly {
    readonly agentId: string;
    readonly seasonId: string;
    readonly performance: number;
    readonly seal: Hex32;
    readonly asOf: number;
  }[];
  readonly inputsLogSize: number;
  /** The agent's inputs in log order, decoded as the cycle decodes them. */
  readonly records: AgentRecords;
}

/** The scorer the cycle runs, over one agent: returns the manifest it would seal. */
export type Rescore = (request: RescoreRequest) => Record<string, unknown>;

/** A JSON-RPC connection to the chain (an archive node for old blocks). */
export interface ChainReader {
  call(method: string, params: readonly unknown[]): Promise<unknown>;
}

/**
 * Re-measures one stored snapshot or trade from the chain at the block it records and returns
 * its fields as measured now (every field is compared with the stored one).
 */
export type Remeasure = (
  snapshotBody: Record<string, unknown>,
  chain: ChainReader,
) => Promise<Record<string, unknown>>;

export interface DeepOptions {
  readonly api: string;
  readonly agent: string;
  readonly season: string;
  readonly http: HttpOptions;
  /** The manifest steps 1–4 checked (parsed). */
  readonly manifest: Record<string, unknown>;
  readonly rescore: Rescore;
  /** The log's leaves enumerated so far, shared by the agents one thread checks (extended in place). */
  readonly logLeaves?: ServedLeaf[];
  /**
   * The season's snapshots summed for the pooled totals, by log size, shared by the agents one
   * thread checks (extended in place): each other agent's inputs are fetched once, not once per agent.
   */
  readonly pooledSums?: Map<number, SeasonPooledSums>;
  /** With `--rpc --remeasure N`: re-measure N snapshots and N measured trades spread over the season. */
  readonly remeasure?: { readonly count: number; readonly chain: ChainReader; readonly measure: Remeasure };
}

const short = (hex: string) => `${hex.slice(0, 10)}…`;
const seconds = (iso: unknown) => Date.parse(String(iso)) / 1000;
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const same = (a: unknown, b: unknown) => canonicalJson(a ?? null) === canonicalJson(b ?? null);

/** Every leaf value of `stated` and `rebuilt` under `path` (objects walked, arrays compared whole). */
function compareFields(path: string, stated: unknown, rebuilt: unknown, out: DeepCheck[]): void {
  if (isObject(stated) && isObject(rebuilt)) {
    const keys = [...new Set([...Object.keys(stated), ...Object.keys(rebuilt)])].sort();
    for (const key of keys) compareFields(`${path}.${key}`, stated[key], rebuilt[key], out);
    return;
  }
  const passed = same(stated, rebuilt);
  out.push({
    name: path,
    passed,
    detail: passed
      ? `${JSON.stringify(stated)} rebuilt from the inputs`
      : `manifest ${JSON.stringify(stated)}, rebuilt from the inputs ${JSON.stringify(rebuilt)}`,
  });
}

/** Each served body hashes to its seal, is canonical JSON, and is of the kind served. */
function resealed(inputs: readonly ServedInput[]): { check: DeepCheck; good: ServedInput[] } {
  const problems: string[] = [];
  const good = inputs.filter((input) => {
    const hashed = toHex32(sha256(input.body));
    let canonical = false;
    try {
      canonical = canonicalJson(JSON.parse(input.body)) === input.body;
    } catch {
      canonical = false;
    }
    const problem =
      hashed !== input.seal
        ? `hashes to ${short(hashed)}`
        : !canonical
          ? "is not RFC 8785 canonical JSON"
          : !(INPUT_KINDS as readonly string[]).includes(input.kind)
            ? `is of kind ${input.kind}, not an input`
            : null;
    if (problem !== null) problems.push(`${input.kind} ${input.seal} (leaf ${input.leafIndex}) ${problem}`);
    return problem === null;
  });
  return {
    good,
    check: {
      name: "inputs re-sealed",
      passed: problems.length === 0,
      detail:
        problems.length === 0
          ? `all ${inputs.length} inputs hash to their seals (sha256 of the canonical body)`
          : problems.join("; "),
    },
  };
}

/** The served inputs are exactly the agent's input leaves of the season in the enumerated log. */
function completeness(
  leaves: readonly ServedLeaf[],
  inputs: readonly ServedInput[],
  agent: string,
  season: string,
): DeepCheck {
  const expected = leaves.filter(
    (l) =>
      l.agentId === agent && l.seasonId === season && (INPUT_KINDS as readonly string[]).includes(l.kind),
  );
  const served = new Map(inputs.map((i) => [i.seal, i]));
  const inLog = new Map(expected.map((l) => [l.seal, l]));
  const problems = [
    ...expected
      .filter((l) => served.get(l.seal)?.leafIndex !== l.leafIndex)
      .map((l) => `${l.kind} ${l.seal} (leaf ${l.leafIndex}) is in the log but missing from the inputs`),
    ...inputs
      .filter((i) => !inLog.has(i.seal))
      .map(
        (i) =>
          `${i.kind} ${i.seal} (leaf ${i.leafIndex}) is served as an input but is not this agent's in the log`,
      ),
  ];
  return {
    name: "completeness against the enumerated log",
    passed: problems.length === 0,
    detail:
      problems.length === 0
        ? `the ${expected.length} input leaves of ${agent} in season ${season} below ${leaves.length} are exactly the inputs served`
        : problems.join("; "),
  };
}

/** Each creator input is a score sealed below the log size whose performance term is the one named. */
async function creatorInputs(
  options: DeepOptions,
  leaves: readonly ServedLeaf[],
  named: readonly { agent: string; performance: number; seal: Hex32 }[],
): Promise<DeepCheck[]> {
  const bySeal = new Map(leaves.map((l) => [l.seal, l]));
  const checks: DeepCheck[] = [];
  for (const input of named) {
    const leaf = bySeal.get(input.seal);
    let problem: string | null = null;
    if (leaf === undefined || leaf.kind !== "score" || leaf.agentId !== input.agent)
      problem = `is not a score of ${input.agent} in the log below ${leaves.length}`;
    else {
      const body = await fetchRecordBody(options.api, input.seal, options.http);
      const performance = (body.outputs as { terms?: { performance?: unknown } } | undefined)?.terms
        ?.performance;
      if (performance !== input.performance)
        problem = `its sealed performance is ${JSON.stringify(performance)}`;
    }
    checks.push({
      name: `creator input ${input.agent}`,
      passed: problem === null,
      detail: `${short(input.seal)} ${problem ?? `is ${input.agent}'s sealed score (leaf ${leaf!.leafIndex}), performance ${input.performance}`}`,
    });
  }
  return checks;
}

/** N snapshots spread evenly over the list (first and last included when N ≥ 2). */
export function sample<T>(items: readonly T[], n: number): T[] {
  if (n >= items.length) return [...items];
  if (n <= 0) return [];
  if (n === 1) return [items[0]!];
  return Array.from({ length: n }, (_, k) => items[Math.round((k * (items.length - 1)) / (n - 1))]!);
}

/** Every leaf where `stored` and `measured` differ, by path (objects and arrays walked). */
export function fieldDifferences(path: string, stored: unknown, measured: unknown): string[] {
  const walk = (keys: readonly (string | number)[], at: (k: string | number) => string) =>
    keys.flatMap((k) =>
      fieldDifferences(
        at(k),
        (stored as Record<string, unknown>)[k],
        (measured as Record<string, unknown>)[k],
      ),
    );
  if (isObject(stored) && isObject(measured))
    return walk([...new Set([...Object.keys(stored), ...Object.keys(measured)])].sort(), (k) =>
      path ? `${path}.${k}` : String(k),
    );
  if (Array.isArray(stored) && Array.isArray(measured) && stored.length === measured.length)
    return walk(
      stored.map((_, i) => i),
      (i) => `${path}[${i}]`,
    );
  return same(stored, measured)
    ? []
    : [`${path}: stored ${JSON.stringify(stored ?? null)}, chain ${JSON.stringify(measured ?? null)}`];
}

/** Measured trades (`augur-trade/v2`) are re-measured too; a declared trade records no swap log. */
function isMeasuredTrade(input: ServedInput): boolean {
  try {
    return (
      input.kind === "trade" &&
      (JSON.parse(input.body) as { format?: unknown }).format === MEASURED_TRADE_FORMAT
    );
  } catch {
    return false;
  }
}

/**
 * N snapshots and N measured trades spread over the season, each measured again from the chain
 * and compared field by field with the body served (re-sealed or not: a check of its own).
 */
async function remeasured(options: DeepOptions, inputs: readonly ServedInput[]): Promise<DeepCheck[]> {
  const { count, chain, measure } = options.remeasure!;
  const checks: DeepCheck[] = [];
  const snapshots = sample(
    inputs.filter((i) => i.kind === "snapshot"),
    count,
  );
  const trades = sample(inputs.filter(isMeasuredTrade), count);
  for (const input of [...snapshots, ...trades]) {
    const name = `${input.kind} ${short(input.seal)} re-measured`;
    try {
      const body = JSON.parse(input.body) as Record<string, unknown>;
      const stored = (isObject(body.message) ? body.message : body) as Record<string, unknown>;
      const measured = await measure(body, chain);
      const differ = Object.keys(measured).flatMap((key) =>
        fieldDifferences(key, stored[key], measured[key]),
      );
      checks.push({
        name,
        passed: differ.length === 0,
        detail:
          differ.length === 0
            ? `${Object.keys(measured).length} fields equal the chain's`
            : differ.join("; "),
      });
    } catch (error) {
      checks.push({ name, passed: false, detail: (error as Error).message });
    }
  }
  return checks;
}

/**
 * The pooled total of every pooled mark is the sum of that stock over the season's snapshots at
 * the same hour: every other agent's snapshots of the season below the log size are fetched (once
 * per thread with `options.pooledSums`).
 */
async function pooledTotals(
  options: DeepOptions,
  leaves: readonly ServedLeaf[],
  size: number,
  own: readonly ServedInput[],
): Promise<DeepCheck> {
  const others = new Set(
    leaves.flatMap((l) =>
      l.kind === "snapshot" && l.seasonId === options.season && l.agentId && l.agentId !== options.agent
        ? [l.agentId]
        : [],
    ),
  );
  const sorted = [...others].sort();
  const cache = options.pooledSums?.get(size) ?? new SeasonPooledSums();
  options.pooledSums?.set(size, cache);
  for (const other of sorted)
    if (!cache.has(other))
      cache.add(other, await fetchInputs(options.api, other, options.season, size, options.http));
  let problems = cache.problems(options.agent, own, sorted);
  if (problems === undefined) {
    const season = [...own];
    for (const other of sorted)
      season.push(...(await fetchInputs(options.api, other, options.season, size, options.http)));
    problems = pooledTotalProblems(own, season);
  }
  return {
    name: "pooled totals",
    passed: problems.length === 0,
    detail:
      problems.length === 0
        ? `every pooled balance is the sum over the season's snapshots at its hour (${others.size + 1} agents)`
        : problems.join("; "),
  };
}

/**
 * `augur verify --deep`, beyond the seed's four steps: fetch every input the manifest binds,
 * re-seal it, check that the inputs are exactly the agent's leaves in the enumerated log below
 * `inputs_log_size`, re-run the scorer over them and compare every input root and count, every
 * measured value and every output with the manifest; check each creator input against its
 * sealed score; check every pooled total against the season's snapshots at its hour; with a
 * chain, re-measure a sample of snapshots and measured trades.
 */
export async function verifyDeep(options: DeepOptions): Promise<DeepCheck[]> {
  const { manifest, agent, season } = options;
  const inputsStated = (isObject(manifest.inputs) ? manifest.inputs : {}) as Record<string, unknown>;
  const logSize = inputsStated.inputs_log_size;
  if (manifest.manifest_version !== 2 || !Number.isSafeInteger(logSize))
    return [
      {
        name: "manifest binds every input",
        passed: false,
        detail: `manifest version ${JSON.stringify(manifest.manifest_version ?? 1)} binds decisions, trades and calls by count only and names no inputs_log_size: --deep needs version 2`,
      },
    ];
  const size = logSize as number;
  const inputs = await fetchInputs(options.api, agent, season, size, options.http);
  const leaves = await enumerateLog(options.api, size, options.http, options.logLeaves);
  const window = await fetchSeasonWindow(options.api, season, options.http);
  const { check: sealCheck, good } = resealed(inputs);
  const checks: DeepCheck[] = [sealCheck, completeness(leaves, inputs, agent, season)];

  const records = new AgentRecords();
  for (const input of good) records.add(input.kind, input.seal, input.body);
  const subject = manifest.subject as Record<string, string>;
  const measured = (isObject(manifest.measured) ? manifest.measured : null) as {
    creator_inputs?: {
      agent: string;
      season_id: string;
      performance: number;
      seal: Hex32;
      sealed_at: string;
    }[];
  } | null;
  const named = measured?.creator_inputs ?? [];
  const rebuilt = options.rescore({
    seasonId: season,
    startsAt: window.startsAt,
    endsAt: window.endsAt,
    asOf: seconds(subject.as_of),
    agent: { agentId: agent, creator: subject.creator!, style: subject.style! },
    creatorInputs: named.map((c) => ({
      agentId: c.agent,
      seasonId: c.season_id,
      performance: c.performance,
      seal: c.seal,
      asOf: seconds(c.sealed_at),
    })),
    inputsLogSize: size,
    records,
  });
  compareFields("inputs", manifest.inputs, rebuilt.inputs, checks);
  compareFields("measured", manifest.measured, rebuilt.measured, checks);
  compareFields("outputs", manifest.outputs, rebuilt.outputs, checks);
  checks.push(...(await creatorInputs(options, leaves, named)));
  if (hasPooledMarks(good)) checks.push(await pooledTotals(options, leaves, size, good));
  if (options.remeasure) checks.push(...(await remeasured(options, inputs)));
  return checks;
}
