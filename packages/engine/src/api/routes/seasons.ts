import type { FastifyInstance } from "fastify";
import { ApiError } from "../errors";
import type { ApiDeps } from "../deps";
import { errorBody, hex32Schema, idSchema, pageQuery, uintSchema } from "../schemas";
import { findAgent } from "../../store/queries/agents";
import { findSeason } from "../../store/queries/seasons";
import { latestScoringTime, leaderboard } from "../../store/queries/scores";
import { listSeasons } from "../../store/queries/seasons";

export const seasonParams = { type: "object", required: ["id"], properties: { id: idSchema } } as const;

/** 404 UNKNOWN_SEASON unless the season exists. */
export async function requireSeason(deps: ApiDeps, id: string): Promise<void> {
  if (!(await findSeason(deps.store.db, id)))
    throw new ApiError(404, "UNKNOWN_SEASON", `season ${id} does not exist`);
}

/**
 * The agent registered in the season (`/agents/:id/…?season_id=…`): 404 UNKNOWN_SEASON for a
 * season that does not exist, else 404 UNKNOWN_AGENT for an agent not registered in it.
 */
export async function requireAgentInSeason(deps: ApiDeps, id: string, seasonId: string) {
  const agent = await findAgent(deps.store.db, id, seasonId);
  if (agent) return agent;
  await requireSeason(deps, seasonId); // an unknown season says so, not "unknown agent"
  throw new ApiError(404, "UNKNOWN_AGENT", `agent ${id} is not registered in season ${seasonId}`);
}

/** Every season, newest first. */
async function seasonsView(deps: ApiDeps) {
  return {
    seasons: (await listSeasons(deps.store.db)).map((s) => ({
      id: s.id,
      name: s.name,
      startsAt: s.starts_at,
      endsAt: s.ends_at,
      closedAt: s.closed_at,
    })),
  };
}

/** What `GET /api/v1/seasons` answers. */
export type SeasonsView = Awaited<ReturnType<typeof seasonsView>>;

/** `GET /api/v1/seasons`. */
export function seasonListRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get(
    "/api/v1/seasons",
    { schema: { summary: "Every season, newest first", tags: ["seasons"], response: { "4xx": errorBody } } },
    () => seasonsView(deps),
  );
}

/** `GET /api/v1/seasons/:id/leaderboard`. */
export function seasonRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get(
    "/api/v1/seasons/:id/leaderboard",
    {
      schema: {
        summary: "The season's latest scores, ranked (unranked agents last, with their reason)",
        tags: ["scores"],
        params: seasonParams,
        querystring: { type: "object", additionalProperties: false, properties: pageQuery(100, 1000) },
        response: {
          200: {
            type: "object",
            required: ["seasonId", "asOf", "rows"],
            properties: {
              seasonId: { type: "string" },
              asOf: { type: ["integer", "null"] },
              rows: {
                type: "array",
                items: {
                  type: "object",
                  required: ["agentId", "rank", "score", "reason", "seal"],
                  properties: {
                    agentId: { type: "string" },
                    rank: { type: ["integer", "null"] },
                    score: { type: ["number", "null"] },
                    reason: { type: ["string", "null"] },
                    seal: hex32Schema,
                  },
                },
              },
              limit: uintSchema,
              offset: uintSchema,
            },
          },
          "4xx": errorBody,
        },
      },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      const { limit, offset } = request.query as { limit: number; offset: number };
      const db = deps.store.db;
      await requireSeason(deps, id);
      const asOf = await latestScoringTime(db, id);
      const rows = asOf === undefined ? [] : await leaderboard(db, id, asOf, limit, offset);
      return {
        seasonId: id,
        asOf: asOf ?? null,
        rows: rows.map((r) => ({
          agentId: r.agent_id,
          rank: r.rank,
          score: r.score,
          reason: r.reason,
          seal: r.seal,
        })),
        limit,
        offset,
      };
    },
  );
}
