import type { FastifyInstance } from "fastify";
import { postText, ERASABLE_TEXT_MAX, type TextSubmission } from "../../erasure/texts";
import type { ApiDeps } from "../deps";
import { errorBody, hex32Schema } from "../schemas";

/** An erasable field as served beside its record (`TextView`). */
export const textViewSchema = {
  type: "object",
  required: ["field", "hash", "status", "text", "salt", "erasedAt"],
  properties: {
    field: { type: "string" },
    hash: hex32Schema,
    status: { type: "string", enum: ["published", "erased", "pending", "none"] },
    text: { type: ["string", "null"] },
    salt: { type: ["string", "null"] },
    erasedAt: { type: ["integer", "null"] },
  },
} as const;

const posted = {
  type: "object",
  required: ["seal", "field", "created"],
  properties: { seal: hex32Schema, field: { type: "string" }, created: { type: "boolean" } },
} as const;

/** `POST /api/v1/records/:seal/texts`: the text of a record's erasable field, checked against its sealed hash. */
export function erasureRoutes(app: FastifyInstance, deps: ApiDeps, perMinute: number): void {
  app.post(
    "/api/v1/records/:seal/texts",
    {
      bodyLimit: 4 * 1024,
      config: { cors: false, rateLimit: { max: perMinute, timeWindow: 60_000 } },
      schema: {
        summary: "Publish the text of a record's erasable field (e.g. a DecisionV3's note)",
        description:
          "Free text never enters a sealed body: the record seals `<field>Hash` = sha256(salt ‖ UTF-8 text) and the text and its 32-byte salt are posted here, kept beside the record and served with it (GET /api/v1/records/:seal, `texts`), erasable on request (`augur erase`) without touching the seal or any proof. No signature: the agent signed the hash, and only the text it stands for is accepted. 201 stored, 200 the same text again; 404 UNKNOWN_SEAL / UNKNOWN_FIELD; 422 NO_TEXT (the hash sealed is zero) / TEXT_MISMATCH; 410 ERASED once erased (an erased text is never taken back).",
        tags: ["records"],
        params: { type: "object", required: ["seal"], properties: { seal: hex32Schema } },
        body: {
          type: "object",
          additionalProperties: false,
          required: ["field", "text", "salt"],
          properties: {
            field: { type: "string", pattern: "^[a-z][A-Za-z0-9]{0,31}$" },
            text: { type: "string", minLength: 1, maxLength: ERASABLE_TEXT_MAX },
            salt: hex32Schema,
          },
        },
        response: { 200: posted, 201: posted, "4xx": errorBody },
      },
    },
    async (request, reply) => {
      const seal = (request.params as { seal: string }).seal.toLowerCase();
      const outcome = await postText(deps.store, seal, request.body as TextSubmission, deps.now());
      return reply.code(outcome.created ? 201 : 200).send(outcome);
    },
  );
}
