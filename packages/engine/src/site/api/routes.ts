import type { FastifyInstance } from "fastify";
import { RISK_SCORE_V1 } from "@augur/scorer";
import type { ApiDeps } from "../../api/deps";
import { ApiError } from "../../api/errors";
import { errorBody, idSchema } from "../../api/schemas";
import { findAgent } from "../../store/queries/agents";
import { consensusMarkets } from "../../store/queries/consensus";
import { manifestTexts, seasonRecords } from "../../store/queries/records";
import {
  countStandings,
  latestScoringTime,
  STANDING_SORTS,
  standingsPage,
  type StandingSort,
} from "../../store/queries/scores";
import { findSeason, listSeasons } from "../../store/queries/seasons";
import { callPoint, snapshotPoint, streaks } from "./record-bodies";
import { servedRiskRows } from "../../risk/served";
import { latestRiskRows } from "../../store/queries/risk";

const seasonParams = { type: "object", required: ["id"], properties: { id: idSchema } } as const;

async function requireSeason(deps: ApiDeps, id: string): Promise<void> {
  if (!(await findSeason(deps.store.db, id)))
    throw new ApiError(404, "UNKNOWN_SEASON", `season ${id} does not exist`);
}

function parsedJson(text: string): Record<string, unknown> {
  return JSON.parse(text) as Record<string, unknown>;
}

/**
 * The read views the site shows beyond the engine's own routes, served under `/api/v1` like
 * every other view so a page never knows more than the public API.
 */
export function siteApiRoutes(app: FastifyInstance, deps: ApiDeps): void {
  const db = deps.store.db;

  app.get(
    "/api/v1/seasons",
    { schema: { summary: "Every season, newest first", tags: ["seasons"], response: { "4xx": errorBody } } },
    async () => ({
      seasons: (await listSeasons(db)).map((s) => ({
        id: s.id,
        name: s.name,
        startsAt: s.starts_at,
        endsAt: s.ends_at,
        closedAt: s.closed_at,
      })),
    }),
  );

  app.get(
    "/api/v1/seasons/:id/standings",
    {
      schema: {
        summary: "The leaderboard with each agent's creator, style, terms and multiplier",
        tags: ["scores"],
        params: seasonParams,
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: {
            limit: { type: "integer", minimum: 1, maximum: 1000, default: 100 },
            offset: { type: "integer", minimum: 0, maximum: 1_000_000, default: 0 },
            sort: { type: "string", enum: STANDING_SORTS, default: "rank" },
            order: { type: "string", enum: ["asc", "desc"], default: "asc" },
          },
        },
        response: { "4xx": errorBody },
      },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      const q = request.query as { limit: number; offset: number; sort: StandingSort; order: "asc" | "desc" };
      await requireSeason(deps, id);
      const asOf = await latestScoringTime(db, id);
      if (asOf === undefined)
        return { seasonId: id, asOf: null, total: 0, limit: q.limit, offset: q.offset, rows: [] };
      const [total, rows] = await Promise.all([
        countStandings(db, id, asOf),
        standingsPage(db, id, asOf, {
          limit: q.limit,
          offset: q.offset,
          sort: q.sort,
          descending: q.order === "desc",
        }),
      ]);
      const manifests = await manifestTexts(
        db,
        rows.map((r) => r.seal),
      );
      return {
        seasonId: id,
        asOf,
        total,
        limit: q.limit,
        offset: q.offset,
        rows: rows.map((r) => {
          const outputs = (parsedJson(manifests.get(r.seal) ?? "{}").outputs ?? {}) as Record<
            string,
            unknown
          >;
          return {
            agentId: r.agent_id,
            creator: r.creator,
            style: r.style,
            rank: r.rank,
            score: r.score,
            reason: r.reason,
            terms: parsedJson(r.terms),
            multiplier: typeof outputs.multiplier === "number" ? outputs.multiplier : null,
            seal: r.seal,
          };
        }),
      };
    },
  );

  app.get(
    "/api/v1/agents/:id/history",
    {
      schema: {
        summary: "An agent's snapshots (NAV curve) and calls in a season, with streaks",
        tags: ["scores"],
        params: { type: "object", required: ["id"], properties: { id: idSchema } },
        querystring: {
          type: "object",
          additionalProperties: false,
          required: ["season_id"],
          properties: { season_id: idSchema },
        },
        response: { "4xx": errorBody },
      },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      const { season_id: seasonId } = request.query as { season_id: string };
      const agent = await findAgent(db, id, seasonId);
      if (!agent)
        throw new ApiError(404, "UNKNOWN_AGENT", `agent ${id} is not registered in season ${seasonId}`);
      const records = await seasonRecords(db, seasonId, ["snapshot", "call"], id);
      const snapshots = records
        .filter((r) => r.kind === "snapshot")
        .map((r) => snapshotPoint(r.body, r.seal))
        .sort((a, b) => a.at - b.at);
      const calls = records.filter((r) => r.kind === "call").map((r) => callPoint(r.body, r.seal));
      return {
        agentId: id,
        seasonId,
        creator: agent.creator,
        style: agent.style,
        snapshots,
        calls: calls.sort((a, b) => b.revealedAt - a.revealedAt),
        ...streaks(calls),
      };
    },
  );

  app.get(
    "/api/v1/seasons/:id/risk",
    {
      schema: {
        summary: "The latest sealed vault risk rows (risk-score/v1) of the season, unsorted",
        tags: ["risk"],
        params: seasonParams,
        response: { "4xx": errorBody },
      },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      await requireSeason(deps, id);
      // The rows the hourly cycle sealed and stored: one source of truth with GET /api/v1/risk.
      const stored = await latestRiskRows(db, id);
      return {
        methodology: RISK_SCORE_V1.version,
        seasonId: id,
        asOf: stored[0]?.as_of ?? null,
        ...servedRiskRows(stored),
      };
    },
  );

  app.get(
    "/api/v1/consensus",
    {
      schema: {
        summary: "Markets with consensus events",
        tags: ["consensus"],
        response: { "4xx": errorBody },
      },
    },
    async () => ({
      markets: (await consensusMarkets(db)).map((m) => ({
        asset: m.asset,
        window: m.window_seconds,
        events: Number(m.events),
      })),
    }),
  );
}
