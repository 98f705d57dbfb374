import type { FastifyInstance } from "fastify";
import { ApiError } from "../errors";
import type { ApiDeps } from "../deps";
import { agentInSeason, errorBody, hex32Schema, idSchema, uintSchema } from "../schemas";
import { requireAgentInSeason } from "./seasons";
import {
  latestScoreWithAnchor,
  scoreAtWithAnchor,
  scoreHistoryWithAnchor,
  type ScoreAnchorColumns,
  type ScoreWithManifest,
} from "../../store/queries/scores";
import type { FromSchema } from "../schema-type";
import { anchorStatus, anchorStatusSchema } from "../views";

const scoreResponse = {
  type: "object",
  required: [
    "agentId",
    "seasonId",
    "asOf",
    "formula",
    "score",
    "reason",
    "rank",
    "terms",
    "seal",
    "manifest",
    "anchor",
  ],
  properties: {
    agentId: { type: "string" },
    seasonId: { type: "string" },
    asOf: uintSchema,
    formula: { type: "string" },
    score: {
      type: ["number", "null"],
      description: "0–100, one decimal; null with a reason when not eligible",
    },
    reason: { type: ["string", "null"] },
    rank: { type: ["integer", "null"] },
    terms: { type: "object", additionalProperties: true },
    seal: hex32Schema,
    leafIndex: uintSchema,
    manifest: {
      type: "object",
      additionalProperties: true,
      description: "sha256 of its RFC 8785 form is the seal",
    },
    anchor: anchorStatusSchema,
  },
} as const;

/** What `GET /api/v1/agents/:id/score` answers. */
export type ScoreView = FromSchema<typeof scoreResponse>;

// Stand-ins replaced by stored JSON text; they cannot occur in any other field of the view.
const RAW_TERMS = "\u0000terms\u0000";
const RAW_MANIFEST = "\u0000manifest\u0000";
const RAW_TERMS_JSON = JSON.stringify(RAW_TERMS);
const RAW_MANIFEST_JSON = JSON.stringify(RAW_MANIFEST);

const scoreQuery = {
  type: "object",
  additionalProperties: false,
  required: ["season_id"],
  properties: {
    season_id: idSchema,
    as_of: { ...uintSchema, description: "unix seconds: the row in force then (the newest at or before it)" },
  },
} as const;

const HISTORY_LIMIT = 100;
const HISTORY_MAX_LIMIT = 1000;

const historyQuery = {
  type: "object",
  additionalProperties: false,
  required: ["season_id"],
  properties: {
    season_id: idSchema,
    limit: { type: "integer", minimum: 1, maximum: HISTORY_MAX_LIMIT, default: HISTORY_LIMIT },
    before: { ...uintSchema, description: "cursor: only rows with asOf below it (the previous page's next)" },
  },
} as const;

const historyRow = {
  type: "object",
  required: ["asOf", "formula", "score", "reason", "rank", "terms", "seal", "leafIndex", "anchor"],
  properties: {
    asOf: uintSchema,
    formula: { type: "string" },
    score: { type: ["number", "null"] },
    reason: { type: ["string", "null"] },
    rank: { type: ["integer", "null"] },
    terms: { type: "object", additionalProperties: true },
    seal: hex32Schema,
    leafIndex: uintSchema,
    anchor: anchorStatusSchema,
  },
} as const;

const historyResponse = {
  type: "object",
  required: ["agentId", "seasonId", "rows", "next"],
  properties: {
    agentId: { type: "string" },
    seasonId: { type: "string" },
    rows: { type: "array", items: historyRow },
    next: { type: ["integer", "null"], description: "the `before` of the next page; null on the last" },
  },
} as const;

/** 404 for an agent without a score row: unknown agent, or no row (yet, or by `asOf`). */
async function noScore(deps: ApiDeps, id: string, seasonId: string, asOf?: number): Promise<never> {
  await requireAgentInSeason(deps, id, seasonId);
  const when = asOf === undefined ? "yet" : `at or before ${asOf}`;
  throw new ApiError(404, "NO_SCORE", `agent ${id} has no score in season ${seasonId} ${when}`);
}

export function scoreRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get(
    "/api/v1/agents/:id/score",
    {
      schema: {
        summary: "An agent's score in a season: the latest, or the one in force at as_of",
        tags: ["scores"],
        params: agentInSeason.params,
        querystring: scoreQuery,
        response: { 200: scoreResponse, "4xx": errorBody },
      },
    },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      const { season_id: seasonId, as_of: asOf } = request.query as { season_id: string; as_of?: number };
      const db = deps.store.db;
      const row =
        asOf === undefined
          ? await latestScoreWithAnchor(db, id, seasonId)
          : await scoreAtWithAnchor(db, id, seasonId, asOf);
      if (!row) return noScore(deps, id, seasonId, asOf);
      const view = {
        agentId: row.agent_id,
        seasonId: row.season_id,
        asOf: row.as_of,
        formula: row.formula,
        score: row.score,
        reason: row.reason,
        rank: row.rank,
        terms: RAW_TERMS,
        seal: row.seal,
        leafIndex: row.leaf_index,
        manifest: RAW_MANIFEST,
        anchor: anchorStatus(row),
      };
      // The manifest goes out as its stored canonical text, byte for byte: sha256 of exactly what
      // the client receives between the braces is the seal (and nothing is parsed and re-encoded).
      const text = JSON.stringify(view)
        .replace(RAW_TERMS_JSON, () => row.terms)
        .replace(RAW_MANIFEST_JSON, () => row.manifest);
      return reply.type("application/json; charset=utf-8").send(text);
    },
  );
}

/** The agent's score rows as a history (added last: the OpenAPI document keeps route order). */
export function scoreHistoryRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get(
    "/api/v1/agents/:id/scores",
    {
      schema: {
        summary: "Every sealed score row of an agent in a season, newest first, with its anchor status",
        tags: ["scores"],
        params: agentInSeason.params,
        querystring: historyQuery,
        response: { 200: historyResponse, "4xx": errorBody },
      },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      const q = request.query as { season_id: string; limit: number; before?: number };
      const rows = await scoreHistoryWithAnchor(deps.store.db, id, q.season_id, {
        limit: q.limit,
        ...(q.before === undefined ? {} : { before: q.before }),
      });
      if (rows.length === 0 && q.before === undefined) await noScore(deps, id, q.season_id);
      const last = rows[rows.length - 1];
      return {
        agentId: id,
        seasonId: q.season_id,
        rows: rows.map(historyView),
        next: rows.length === q.limit && last ? last.as_of : null,
      };
    },
  );
}

function historyView(row: ScoreWithManifest & ScoreAnchorColumns) {
  return {
    asOf: row.as_of,
    formula: row.formula,
    score: row.score,
    reason: row.reason,
    rank: row.rank,
    terms: JSON.parse(row.terms) as Record<string, unknown>,
    seal: row.seal,
    leafIndex: row.leaf_index,
    anchor: anchorStatus(row),
  };
}
