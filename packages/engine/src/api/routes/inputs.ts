import type { FastifyInstance } from "fastify";
import type { ApiDeps } from "../deps";
import { ApiError } from "../errors";
import { errorBody, hex32Schema, idSchema, uintSchema } from "../schemas";
import { INPUT_KINDS } from "../../store/agent-records";
import { findAgent } from "../../store/queries/agents";
import { agentInputRecords } from "../../store/queries/log-leaves";

/**
 * `GET /api/v1/agents/:id/inputs?season_id=&kind=&log_size=`: every sealed input of an agent in
 * a season below a log size (default: the whole log), in log order, which is the order the cycle
 * feeds the scorer. With a manifest's `inputs_log_size`, exactly the records its roots bind.
 */
export function inputRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get(
    "/api/v1/agents/:id/inputs",
    {
      schema: {
        summary:
          "An agent's sealed inputs (snapshots, decisions, trades, calls) in a season below a log size",
        tags: ["scores"],
        params: { type: "object", required: ["id"], properties: { id: idSchema } },
        querystring: {
          type: "object",
          additionalProperties: false,
          required: ["season_id"],
          properties: {
            season_id: idSchema,
            kind: { type: "string", enum: [...INPUT_KINDS] },
            log_size: uintSchema,
          },
        },
        response: {
          200: {
            type: "object",
            required: ["agentId", "seasonId", "logSize", "kinds", "inputs"],
            properties: {
              agentId: { type: "string" },
              seasonId: { type: "string" },
              logSize: uintSchema,
              kinds: { type: "array", items: { type: "string" } },
              inputs: {
                type: "array",
                items: {
                  type: "object",
                  required: ["kind", "seal", "leafIndex", "body"],
                  properties: {
                    kind: { type: "string" },
                    seal: hex32Schema,
                    leafIndex: uintSchema,
                    body: {
                      type: "string",
                      description: "the canonical body as stored: sha256 of it is seal",
                    },
                  },
                },
              },
            },
          },
          "4xx": errorBody,
        },
      },
    },
    async (request) => {
      const id = (request.params as { id: string }).id;
      const query = request.query as {
        season_id: string;
        kind?: (typeof INPUT_KINDS)[number];
        log_size?: number;
      };
      const db = deps.store.db;
      const size = await deps.store.log.size(db);
      const logSize = query.log_size ?? size;
      if (logSize > size)
        throw new ApiError(400, "LOG_RANGE", `log_size ${logSize} is beyond the log size ${size}`);
      if (!(await findAgent(db, id, query.season_id)))
        throw new ApiError(
          404,
          "UNKNOWN_AGENT",
          `agent ${id} is not registered in season ${query.season_id}`,
        );
      const kinds = query.kind === undefined ? [...INPUT_KINDS] : [query.kind];
      const rows = await agentInputRecords(db, id, query.season_id, kinds, logSize);
      return {
        agentId: id,
        seasonId: query.season_id,
        logSize,
        kinds,
        inputs: rows.map((r) => ({
          kind: r.kind,
          seal: r.seal,
          leafIndex: Number(r.leaf_index),
          body: r.body,
        })),
      };
    },
  );
}
