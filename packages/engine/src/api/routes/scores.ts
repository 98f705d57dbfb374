import type { FastifyInstance } from "fastify";
import { ApiError } from "../errors";
import type { ApiDeps } from "../deps";
import { agentInSeason, errorBody, hex32Schema, uintSchema } from "../schemas";
import { requireSeason } from "./seasons";
import { findAgent } from "../../store/queries/agents";
import { latestScoreWithAnchor } from "../../store/queries/scores";
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

export function scoreRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get(
    "/api/v1/agents/:id/score",
    {
      schema: {
        summary: "An agent's latest score in a season",
        tags: ["scores"],
        ...agentInSeason,
        response: { 200: scoreResponse, "4xx": errorBody },
      },
    },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      const { season_id: seasonId } = request.query as { season_id: string };
      const db = deps.store.db;
      const row = await latestScoreWithAnchor(db, id, seasonId);
      if (!row) {
        if (!(await findAgent(db, id, seasonId))) {
          await requireSeason(deps, seasonId);
          throw new ApiError(404, "UNKNOWN_AGENT", `agent ${id} is not registered in season ${seasonId}`);
        }
        throw new ApiError(404, "NO_SCORE", `agent ${id} has no score in season ${seasonId} yet`);
      }
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
