import type { FastifyInstance } from "fastify";
import type { ApiDeps } from "../deps";
import { agentInSeason, errorBody } from "../schemas";
import { requireAgentInSeason } from "./seasons";
import { seasonRecords } from "../../store/queries/records";
import { callPoint, latestPerCall, snapshotPoint, streaks } from "@augur/records";

/** An agent's snapshots (oldest first) and calls (newest reveal first) in a season, with streaks. */
async function historyView(deps: ApiDeps, id: string, seasonId: string) {
  const db = deps.store.db;
  const agent = await requireAgentInSeason(deps, id, seasonId);
  const records = await seasonRecords(db, seasonId, ["snapshot", "call"], id);
  const snapshots = records
    .filter((r) => r.kind === "snapshot")
    .map((r) => snapshotPoint(r.body, r.seal))
    .sort((a, b) => a.at - b.at);
  // Every call of the season once, at its furthest phase: an open one shows outcome "open".
  const calls = latestPerCall(
    records.filter((r) => r.kind === "call"),
    (r) => r.body,
  ).map((r) => callPoint(r.body, r.seal));
  return {
    agentId: id,
    seasonId,
    creator: agent.creator,
    style: agent.style,
    snapshots,
    calls: calls.sort((a, b) => b.revealedAt - a.revealedAt),
    ...streaks(calls),
  };
}

/** What `GET /api/v1/agents/:id/history` answers. */
export type HistoryView = Awaited<ReturnType<typeof historyView>>;

/** `GET /api/v1/agents/:id/history?season_id=…`: the NAV curve and the calls behind an agent page. */
export function historyRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get(
    "/api/v1/agents/:id/history",
    {
      schema: {
        summary: "An agent's snapshots (NAV curve) and calls in a season, with streaks",
        tags: ["scores"],
        ...agentInSeason,
        response: { "4xx": errorBody },
      },
    },
    (request) =>
      historyView(
        deps,
        (request.params as { id: string }).id,
        (request.query as { season_id: string }).season_id,
      ),
  );
}
