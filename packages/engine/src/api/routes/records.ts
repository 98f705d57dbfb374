import type { FastifyInstance } from "fastify";
import { ingestRecord, type Submission } from "../../records/ingest";
import { RECORD_TYPE_NAMES } from "@augur/records";
import type { ApiDeps } from "../deps";
import { ApiError } from "../errors";
import { errorBody, hex32Schema, signatureSchema, uintSchema } from "../schemas";
import { findRecord } from "../../store/queries/records";

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
          "An EIP-712 message of type Registration, RegistrationV2, Snapshot, Decision or Trade (see components), signed by the agent's key; a registration is co-signed by its creator, and a RegistrationV2 by its wallet (walletSignature: the wallet's own signature, or a proof its contract accepts through EIP-1271). In a season whose inputs are measured, snapshots and trades come from the chain: posting one answers 409 MEASURED_BY_ENGINE, and a registration must bind a wallet. Answers 201 with the seal and leaf index, or 200 with the same for a record already stored; 410 WINDING_DOWN once the system winds down (nothing is stored).",
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
            // an EOA's 65 bytes, or whatever proof a contract wallet checks (EIP-1271)
            walletSignature: { type: "string", pattern: "^0x([0-9a-fA-F]{2}){1,2048}$" },
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

/** Stand-in replaced by the stored canonical body text. */
const RAW_BODY_JSON = JSON.stringify("\u0000body\u0000");

export function recordReadRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get(
    "/api/v1/records/:seal",
    {
      schema: {
        summary:
          "One sealed record: its canonical body (sha256 of exactly those bytes is the seal) and signatures",
        tags: ["records"],
        params: { type: "object", required: ["seal"], properties: { seal: hex32Schema } },
        response: {
          200: {
            type: "object",
            required: ["seal", "kind", "agentId", "seasonId", "leafIndex", "receivedAt", "body"],
            properties: {
              seal: hex32Schema,
              kind: { type: "string" },
              agentId: { type: "string" },
              seasonId: { type: "string" },
              leafIndex: uintSchema,
              receivedAt: uintSchema,
              signer: { type: ["string", "null"] },
              signature: { type: ["string", "null"] },
              cosignature: { type: ["string", "null"] },
              body: { type: "object", additionalProperties: true },
            },
          },
          "4xx": errorBody,
        },
      },
    },
    async (request, reply) => {
      const seal = (request.params as { seal: string }).seal.toLowerCase();
      const row = await findRecord(deps.store.db, seal);
      if (!row) throw new ApiError(404, "UNKNOWN_SEAL", `no record has seal ${seal}`);
      const view = {
        seal: row.seal,
        kind: row.kind,
        agentId: row.agent_id,
        seasonId: row.season_id,
        leafIndex: row.leaf_index,
        receivedAt: row.received_at,
        signer: row.signer,
        signature: row.signature,
        cosignature: row.cosignature,
        body: "\u0000body\u0000",
      };
      const text = JSON.stringify(view).replace(RAW_BODY_JSON, () => row.body);
      return reply.type("application/json; charset=utf-8").send(text);
    },
  );
}
