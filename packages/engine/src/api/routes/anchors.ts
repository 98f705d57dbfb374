import type { FastifyInstance } from "fastify";
import type { Hex32 } from "@augur/scorer";
import { ApiError, errorPayload } from "../errors";
import type { ApiDeps } from "../deps";
import { errorBody, hex32Schema, uintSchema } from "../schemas";
import { anchorCovering, listAnchors } from "../../store/queries/anchors";
import { anchorView, anchorViewSchema } from "../views";

const leafResponse = {
  type: "object",
  required: ["status", "seal", "leafIndex", "anchor", "proof"],
  properties: {
    status: { type: "string", enum: ["anchored"] },
    seal: hex32Schema,
    leafIndex: uintSchema,
    anchor: anchorViewSchema,
    proof: {
      type: "object",
      description: "RFC 9162 inclusion proof of the leaf in the anchored tree, nearest the leaf first",
      required: ["leafIndex", "treeSize", "hashes"],
      properties: {
        leafIndex: uintSchema,
        treeSize: uintSchema,
        hashes: { type: "array", items: hex32Schema },
      },
    },
  },
} as const;

const pendingResponse = {
  type: "object",
  description: "unknown seal, or (with status pending) a seal in the log not yet anchored",
  required: ["error"],
  properties: {
    status: { type: "string", enum: ["pending"] },
    seal: hex32Schema,
    leafIndex: uintSchema,
    error: errorBody.properties.error,
  },
} as const;

export function anchorRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get(
    "/api/v1/anchors/leaves/:seal",
    {
      schema: {
        summary: "The anchor a seal sits in, with its inclusion proof",
        tags: ["anchors"],
        params: { type: "object", required: ["seal"], properties: { seal: hex32Schema } },
        response: { 200: leafResponse, 404: pendingResponse, "4xx": errorBody },
      },
    },
    async (request, reply) => {
      const seal = (request.params as { seal: string }).seal.toLowerCase() as Hex32;
      const db = deps.store.db;
      const leafIndex = await deps.store.log.leafIndexOf(db, seal);
      if (leafIndex === undefined) throw new ApiError(404, "UNKNOWN_SEAL", `seal ${seal} is not in the log`);
      const anchor = await anchorCovering(db, leafIndex);
      if (!anchor) {
        return reply.code(404).send({
          status: "pending",
          seal,
          leafIndex,
          ...errorPayload("NOT_ANCHORED", `seal ${seal} is in the log at ${leafIndex} but not anchored yet`),
        });
      }
      const hashes = await deps.store.log.inclusionProof(db, leafIndex, anchor.tree_size);
      return {
        status: "anchored",
        seal,
        leafIndex,
        anchor: anchorView(anchor),
        proof: { leafIndex, treeSize: anchor.tree_size, hashes },
      };
    },
  );

  app.get(
    "/api/v1/anchors",
    {
      schema: {
        summary: "Anchored log heads, in index order",
        tags: ["anchors"],
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: {
            after: { type: "integer", minimum: -1, maximum: Number.MAX_SAFE_INTEGER, default: -1 },
            limit: { type: "integer", minimum: 1, maximum: 500, default: 100 },
          },
        },
        response: {
          200: {
            type: "object",
            required: ["anchors", "next"],
            properties: {
              anchors: { type: "array", items: anchorViewSchema },
              next: { type: ["integer", "null"], description: "pass as `after` for the next page" },
            },
          },
          "4xx": errorBody,
        },
      },
    },
    async (request) => {
      const { after, limit } = request.query as { after: number; limit: number };
      const rows = await listAnchors(deps.store.db, after, limit);
      const last = rows[rows.length - 1];
      return {
        anchors: rows.map(anchorView),
        next: rows.length === limit && last ? last.anchor_index : null,
      };
    },
  );
}
