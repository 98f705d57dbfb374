import type { FastifyInstance } from "fastify";
import { ingestRecord, type Submission } from "../../records/ingest";
import { RECORD_TYPE_NAMES } from "../../records/fields";
import type { ApiDeps } from "../deps";
import { errorBody, hex32Schema, signatureSchema, uintSchema } from "../schemas";

/** Largest accepted record submission, bytes. */
export const RECORD_BODY_LIMIT = 16 * 1024;

export interface WriteLimits {
  /** Submissions per client IP per minute. */
  readonly perMinute: number;
}

const result = {
  type: "object",
  required: ["seal", "leafIndex", "kind", "created"],
  properties: {
    seal: hex32Schema,
    leafIndex: uintSchema,
    kind: { type: "string" },
    created: { type: "boolean" },
  },
} as const;

export function recordRoutes(app: FastifyInstance, deps: ApiDeps, limits: WriteLimits): void {
  app.post(
    "/api/v1/records",
    {
      bodyLimit: RECORD_BODY_LIMIT,
      config: { cors: false, rateLimit: { max: limits.perMinute, timeWindow: 60_000 } },
      schema: {
        summary: "Submit a signed record",
        description:
          "An EIP-712 message of type Registration, Snapshot, Decision or Trade (see components), signed by the agent's key; a Registration is co-signed by its creator. Answers 201 with the seal and leaf index, or 200 with the same for a record already stored.",
        tags: ["records"],
        body: {
          type: "object",
          additionalProperties: false,
          required: ["type", "message", "signature"],
          properties: {
            type: { type: "string", enum: RECORD_TYPE_NAMES },
            message: { type: "object", maxProperties: 16 },
            signature: signatureSchema,
            creatorSignature: signatureSchema,
          },
        },
        response: { 200: result, 201: result, "4xx": errorBody },
      },
    },
    async (request, reply) => {
      const outcome = await ingestRecord(deps.store, request.body as Submission, deps);
      return reply.code(outcome.created ? 201 : 200).send(outcome);
    },
  );
}
