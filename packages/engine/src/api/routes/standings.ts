import type { FastifyInstance } from "fastify";
import type { ApiDeps } from "../deps";
import { errorBody } from "../schemas";
import {
  countStandings,
  latestScoringTime,
  STANDING_SORTS,
  standingsPage,
  type StandingSort,
} from "../../store/queries/scores";
import { manifestTexts } from "../../store/queries/records";
import { requireSeason, seasonParams } from "./seasons";

interface StandingsQuery {
  readonly limit: number;
  readonly offset: number;
  readonly sort: StandingSort;
  readonly order: "asc" | "desc";
}

function parsedJson(text: string): Record<string, unknown> {
  return JSON.parse(text) as Record<string, unknown>;
}

/** One page of the season's latest scoring hour, each row with its agent's registration and terms. */
async function standingsView(deps: ApiDeps, id: string, q: StandingsQuery) {
  const db = deps.store.db;
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
      const outputs = (parsedJson(manifests.get(r.seal) ?? "{}").outputs ?? {}) as Record<string, unknown>;
      return {
        agentId: r.agent_id,
        creator: r.creator,
        style: r.style,
        rank: r.rank,
        score: r.score,
        reason: r.reason,
        terms: parsedJson(r.terms) as Record<string, number | null>,
        multiplier: typeof outputs.multiplier === "number" ? outputs.multiplier : null,
        seal: r.seal,
      };
    }),
  };
}

/** What `GET /api/v1/seasons/:id/standings` answers. */
export type StandingsView = Awaited<ReturnType<typeof standingsView>>;
export type StandingRow = StandingsView["rows"][number];

/** `GET /api/v1/seasons/:id/standings`: the leaderboard with creator, style, terms and multiplier. */
export function standingsRoutes(app: FastifyInstance, deps: ApiDeps): void {
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
    (request) => standingsView(deps, (request.params as { id: string }).id, request.query as StandingsQuery),
  );
}
