import type { FastifyInstance } from "fastify";
import type { ApiDeps } from "../deps";
import { ApiError } from "../errors";
import { errorBody, hex32Schema, uintSchema } from "../schemas";
import { leavesInRange } from "../../store/queries/log-leaves";

/** Most leaves one page answers. */
export const LEAF_PAGE_MAX = 1000;

const leafSchema = {
  type: "object",
  required: ["leafIndex", "seal", "kind", "agentId", "seasonId", "route"],
  properties: {
    leafIndex: uintSchema,
    seal: hex32Schema,
    kind: {
      type: "string",
      description:
        "a record kind (registration, snapshot, decision, trade, call, score) or close, risk, risk_reading, retirement, referee, stewardship, mode, notice, methodology",
    },
    agentId: { type: ["string", "null"] },
    seasonId: { type: ["string", "null"] },
    route: {
      type: ["string", "null"],
      description: "where the record is served; null for a leaf that is not a record",
    },
  },
} as const;

/** `GET /api/v1/log/leaves?start=&end=`: the log enumerated, so a left-out record is visible. */
export function logRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get(
    "/api/v1/log/leaves",
    {
      schema: {
        summary: "The leaves of the log in [start, end), in log order, each with what it seals",
        tags: ["anchors"],
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: { start: { ...uintSchema, default: 0 }, end: uintSchema },
        },
        response: {
          200: {
            type: "object",
            required: ["treeSize", "start", "end", "next", "leaves"],
            properties: {
              treeSize: uintSchema,
              start: uintSchema,
              end: uintSchema,
              next: { type: ["integer", "null"], description: "start of the next page, or null at the end" },
              leaves: { type: "array", items: leafSchema },
            },
          },
          "4xx": errorBody,
        },
      },
    },
    async (request) => {
      const query = request.query as { start: number; end?: number };
      const db = deps.store.db;
      const treeSize = await deps.store.log.size(db);
      const start = query.start;
      const end = query.end ?? Math.min(treeSize, start + LEAF_PAGE_MAX);
      if (start > treeSize)
        throw new ApiError(400, "LOG_RANGE", `start ${start} is beyond the log size ${treeSize}`);
      if (end > treeSize)
        throw new ApiError(400, "LOG_RANGE", `end ${end} is beyond the log size ${treeSize}`);
      if (end < start) throw new ApiError(400, "LOG_RANGE", `end ${end} is before start ${start}`);
      if (end - start > LEAF_PAGE_MAX)
        throw new ApiError(
          400,
          "LOG_RANGE",
          `at most ${LEAF_PAGE_MAX} leaves a page, asked for ${end - start}`,
        );
      const leaves = await leavesInRange(db, start, end);
      return {
        treeSize,
        start,
        end,
        next: end < treeSize ? end : null,
        leaves: leaves.map((l) => ({
          leafIndex: l.leaf_index,
          seal: l.seal,
          kind: l.kind,
          agentId: l.agent_id,
          seasonId: l.season_id,
          route: l.agent_id === null ? null : `/api/v1/records/${l.seal}`,
        })),
      };
    },
  );
}
