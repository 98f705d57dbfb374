import type { FastifyInstance } from "fastify";
import type { ApiDeps } from "../deps";
import { agentInSeason, errorBody, uintSchema } from "../schemas";
import { agentEvidence } from "../../evidence/evidence";
import { latestAnchor } from "../../store/queries/anchors";
import { requireAgentInSeason } from "./seasons";

const share = { type: ["number", "null"], minimum: 0, maximum: 1 } as const;

const evidenceResponse = {
  type: "object",
  required: [
    "agentId",
    "seasonId",
    "asOf",
    "anchoredSize",
    "inputs",
    "records",
    "openCalls",
    "daysObserved",
    "retiredAt",
  ],
  properties: {
    agentId: { type: "string" },
    seasonId: { type: "string" },
    asOf: uintSchema,
    anchoredSize: { ...uintSchema, description: "tree size of the newest posted anchor (0: none)" },
    inputs: {
      type: "object",
      required: ["measured", "declared", "measuredShare"],
      description:
        "snapshots, decisions and trades: read from the chain by the engine vs signed by the agent",
      properties: { measured: uintSchema, declared: uintSchema, measuredShare: share },
    },
    records: {
      type: "object",
      required: ["total", "anchored", "anchoredShare"],
      properties: { total: uintSchema, anchored: uintSchema, anchoredShare: share },
    },
    openCalls: uintSchema,
    daysObserved: { type: ["integer", "null"], minimum: 1 },
    retiredAt: {
      type: ["integer", "null"],
      description: "when the agent retired (signed Retirement); null: active",
    },
  },
} as const;

/** One agent's evidence now (shared by the route and the evidence page). */
export async function evidenceView(deps: ApiDeps, seasonId: string, agentId: string) {
  await requireAgentInSeason(deps, agentId, seasonId);
  const anchoredSize = (await latestAnchor(deps.store.db))?.tree_size ?? 0;
  const asOf = deps.now();
  return { ...(await agentEvidence(deps.store, seasonId, agentId, anchoredSize, asOf)), asOf, anchoredSize };
}

/** What `GET /api/v1/agents/:id/evidence` answers. */
export type EvidenceView = Awaited<ReturnType<typeof evidenceView>>;

/**
 * `GET /api/v1/agents/:id/evidence?season_id=…`: how well an agent's record is evidenced, apart
 * from the risk score (which never reads it).
 */
export function evidenceRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get(
    "/api/v1/agents/:id/evidence",
    {
      schema: {
        summary:
          "How an agent's record is evidenced: inputs measured vs declared, share anchored, open calls, days observed",
        tags: ["evidence"],
        ...agentInSeason,
        response: { 200: evidenceResponse, "4xx": errorBody },
      },
    },
    (request) =>
      evidenceView(
        deps,
        (request.query as { season_id: string }).season_id,
        (request.params as { id: string }).id,
      ),
  );
}
