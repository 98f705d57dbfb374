import { isHex32, type Hex32 } from "@augur/scorer";
import { type HttpOptions, RequestFailedError, requestJson } from "./http";
import { errorMessage, UnexpectedResponseError } from "./responses";

// The engine responses `augur verify --deep` reads (the log enumerated, an agent's inputs,
// seasons, one record), checked and reduced to what the deep checks need.

export interface ServedLeaf {
  readonly leafIndex: number;
  readonly seal: Hex32;
  readonly kind: string;
  readonly agentId: string | null;
  readonly seasonId: string | null;
}

export interface ServedInput {
  readonly kind: string;
  readonly seal: Hex32;
  readonly leafIndex: number;
  /** The canonical body as stored. */
  readonly body: string;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const isIndex = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/** GET `url` as JSON; anything but 200 fails as one line naming the URL. */
export async function getJson(url: string, http: HttpOptions): Promise<unknown> {
  const { status, body } = await requestJson(url, http, undefined, "the engine");
  if (status !== 200) {
    const message = errorMessage(body);
    throw new RequestFailedError(url, `HTTP ${status}${message ? ` (${message})` : ""}`);
  }
  return body;
}

function list(body: unknown, field: string, url: string): unknown[] {
  const items = isObject(body) ? body[field] : undefined;
  if (!Array.isArray(items)) throw new UnexpectedResponseError(url, `no "${field}" array`);
  return items;
}

/**
 * Every leaf in [0, size), page by page (`GET /api/v1/log/leaves`). Given the leaves of a shorter
 * prefix already enumerated (`known`, extended in place), only the rest is asked for: over many
 * agents, whose manifests name log sizes of the same log, the log is read once.
 */
export async function enumerateLog(
  api: string,
  size: number,
  http: HttpOptions,
  known: ServedLeaf[] = [],
): Promise<ServedLeaf[]> {
  const leaves = known;
  while (leaves.length < size) {
    const start = leaves.length;
    const url = `${api}/api/v1/log/leaves?start=${start}&end=${Math.min(size, start + 1000)}`;
    const page = list(await getJson(url, http), "leaves", url);
    if (page.length === 0) throw new UnexpectedResponseError(url, "an empty page before the log size");
    for (const item of page) {
      const leaf = item as Json;
      if (
        !isObject(item) ||
        leaf.leafIndex !== leaves.length ||
        !isHex32(leaf.seal) ||
        typeof leaf.kind !== "string"
      )
        throw new UnexpectedResponseError(
          url,
          `leaf ${leaves.length} is not { leafIndex, seal, kind, … } in order`,
        );
      leaves.push({
        leafIndex: leaf.leafIndex,
        seal: leaf.seal,
        kind: leaf.kind,
        agentId: typeof leaf.agentId === "string" ? leaf.agentId : null,
        seasonId: typeof leaf.seasonId === "string" ? leaf.seasonId : null,
      });
    }
  }
  return leaves.slice(0, size);
}

/** The agent's sealed inputs in the season below `logSize`, in log order (`GET …/inputs`). */
export async function fetchInputs(
  api: string,
  agent: string,
  season: string,
  logSize: number,
  http: HttpOptions,
): Promise<ServedInput[]> {
  const url = `${api}/api/v1/agents/${encodeURIComponent(agent)}/inputs?season_id=${encodeURIComponent(season)}&log_size=${logSize}`;
  return list(await getJson(url, http), "inputs", url).map((item, i) => {
    const input = item as Json;
    if (
      !isObject(item) ||
      typeof input.kind !== "string" ||
      !isHex32(input.seal) ||
      !isIndex(input.leafIndex)
    )
      throw new UnexpectedResponseError(url, `inputs[${i}] is not { kind, seal, leafIndex, body }`);
    if (typeof input.body !== "string")
      throw new UnexpectedResponseError(url, `inputs[${i}].body is not a string`);
    return { kind: input.kind, seal: input.seal, leafIndex: input.leafIndex, body: input.body };
  });
}

/** The season's start and its close (the earlier of its end and an early close), unix seconds. */
export async function fetchSeasonWindow(
  api: string,
  season: string,
  http: HttpOptions,
): Promise<{ startsAt: number; endsAt: number }> {
  const url = `${api}/api/v1/seasons`;
  const found = list(await getJson(url, http), "seasons", url).find((s) => isObject(s) && s.id === season) as
    | Json
    | undefined;
  if (!found || !isIndex(found.startsAt) || !isIndex(found.endsAt))
    throw new UnexpectedResponseError(url, `season ${season} is not listed with startsAt and endsAt`);
  const closedAt = isIndex(found.closedAt) ? found.closedAt : Infinity;
  return { startsAt: found.startsAt, endsAt: Math.min(found.endsAt, closedAt) };
}

/** A sealed record's parsed body (`GET /api/v1/records/:seal`). */
export async function fetchRecordBody(api: string, seal: Hex32, http: HttpOptions): Promise<Json> {
  const url = `${api}/api/v1/records/${seal}`;
  const body = await getJson(url, http);
  if (!isObject(body) || !isObject(body.body)) throw new UnexpectedResponseError(url, "no record body");
  return body.body;
}

/** Leaderboard rows asked for at once: the route's largest page. */
const LEADERBOARD_PAGE = 1000;

/**
 * Every agent with a score in the season, by agent id (`GET /api/v1/seasons/:id/leaderboard`,
 * page by page): whom `augur verify --all-agents` checks.
 */
export async function fetchSeasonAgents(api: string, season: string, http: HttpOptions): Promise<string[]> {
  const agents = new Set<string>();
  for (let offset = 0; ; offset += LEADERBOARD_PAGE) {
    const url = `${api}/api/v1/seasons/${encodeURIComponent(season)}/leaderboard?limit=${LEADERBOARD_PAGE}&offset=${offset}`;
    const rows = list(await getJson(url, http), "rows", url);
    for (const [i, row] of rows.entries()) {
      if (!isObject(row) || typeof row.agentId !== "string")
        throw new UnexpectedResponseError(url, `rows[${i}] names no agentId`);
      agents.add(row.agentId);
    }
    if (rows.length < LEADERBOARD_PAGE) return [...agents].sort();
  }
}
