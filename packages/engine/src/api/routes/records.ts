import { Readable } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { InvalidInputError, parseIJson, UnsealableRecordError } from "@augur/scorer";
import type { Submission } from "../../records/ingest";
import { IngestPool } from "../../records/ingest-pool";
import { RecordIngestor, storesIn } from "../../records/ingest-queue";
import { ingestRetirement } from "../../records/retire";
import { RECORD_TYPE_NAMES } from "@augur/records";
import type { ApiDeps } from "../deps";
import { ApiError } from "../errors";
import { errorBody, hex32Schema, signatureSchema, uintSchema } from "../schemas";
import { findRecord } from "../../store/queries/records";
import { isShareable } from "../../store/open";
import { setAutoCheckpoint, SQLITE_AUTOCHECKPOINT_PAGES } from "../../store/checkpoints";
import { RecordWriter } from "../record-writer";
import { fieldsOf, textViews } from "../../erasure/texts";
import { textViewSchema } from "./erasure";

/** Largest accepted record submission, bytes. */
export const RECORD_BODY_LIMIT = 16 * 1024;

export interface WriteLimits {
  /** Submissions per client IP per minute. */
  readonly perMinute: number;
  /** Worker threads that check submissions off the request loop; 0 checks them inline. */
  readonly ingestWorkers?: number;
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

const retirementResult = {
  type: "object",
  required: ["seal", "leafIndex", "retiredAt", "created"],
  properties: {
    seal: hex32Schema,
    leafIndex: uintSchema,
    retiredAt: uintSchema,
    created: { type: "boolean" },
  },
} as const;

/**
 * Reads the raw body (never more than one byte past the limit, which the parser then refuses) and
 * refuses what JSON.parse would silently turn into something else: a repeated key or an integer
 * beyond ±(2^53 − 1) (I-JSON, RFC 7493). Malformed JSON is left to the JSON parser's own answer.
 */
async function refuseNonIJson(payload: NodeJS.ReadableStream) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of payload as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > RECORD_BODY_LIMIT) break;
  }
  const raw = Buffer.concat(chunks);
  if (size <= RECORD_BODY_LIMIT) {
    try {
      parseIJson(raw.toString("utf8"));
    } catch (error) {
      if (error instanceof UnsealableRecordError) {
        const path = String(error.details.path);
        throw new InvalidInputError(path, error.shortMessage.replace(`cannot seal record: ${path} `, ""));
      }
    }
  }
  return Object.assign(Readable.from([raw]), { receivedEncodedLength: raw.length });
}

export const RECORDS_PATH = "/api/v1/records";

/** The body schema of `POST /api/v1/records` (the record writer thread compiles it too). */
export const RECORD_SUBMISSION_BODY = {
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
} as const;

/**
 * `POST /api/v1/records` with its schema and body checks. `raw`: the request loop takes the
 * body's bytes only (within the size limit) and hands them to the record writer thread, which
 * declares this same route over its own Fastify and runs the I-JSON check, the JSON parser and
 * the schema there (`api/record-writer-thread.ts`): the same answers, off the loop.
 */
export function recordSubmissionRoute(
  app: FastifyInstance,
  perMinute: number,
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>,
  raw = false,
): void {
  app.post(
    RECORDS_PATH,
    {
      bodyLimit: RECORD_BODY_LIMIT,
      config: { cors: false, rateLimit: { max: perMinute, timeWindow: 60_000 } },
      // Raw: Fastify's own reader holds the size limit, nothing more is done with the bytes here.
      preParsing: raw ? [] : async (_request, _reply, payload) => refuseNonIJson(payload),
      validatorCompiler: raw ? () => () => true : undefined,
      schema: {
        summary: "Submit a signed record",
        description:
          "An EIP-712 message of type Registration, RegistrationV2, Snapshot, Decision, DecisionV2 (a buy or sell decision that names its trade's txHash), DecisionV3 (a decision whose note is sealed as noteHash, the note posted at /api/v1/records/:seal/texts) or Trade (see components), signed by the agent's key; a Registration is co-signed by its creator. Answers 201 with the seal and leaf index, or 200 with the same for a record already stored; 410 WINDING_DOWN once the system winds down (nothing is stored). Refused, storing nothing: a body that is not I-JSON (a repeated key, an integer beyond ±(2^53 − 1)) and any record augur-score/v1 would refuse (400 naming the field); a record dated more than 10 minutes before its arrival (422 STALE_RECORD) or before its agent's registration (422 BEFORE_REGISTRATION); a second, different record of the agent for the same kind and moment (409 EQUIVOCATION).",
        tags: ["records"],
        body: RECORD_SUBMISSION_BODY,
        response: { 200: result, 201: result, "4xx": errorBody },
      },
    },
    async (request, reply) => handler(request, reply),
  );
}

/** A record submission: what the record writer thread answers when there is one. */
export function isRecordSubmission(request: FastifyRequest): boolean {
  return request.method === "POST" && request.routeOptions.url === RECORDS_PATH;
}

/**
 * Whether record submissions go to a record writer thread: with ingest workers and a store a
 * second connection can share (a file or PostgreSQL; an in-memory SQLite store cannot).
 */
export function usesRecordWriter(deps: Pick<ApiDeps, "store">, limits: WriteLimits): boolean {
  return (limits.ingestWorkers ?? 0) > 0 && isShareable(deps.store.location);
}

/**
 * The request loop's JSON parser, except that a record submission's body stays bytes (the
 * record writer thread parses it).
 */
function keepRecordBodiesRaw(app: FastifyInstance): void {
  const json = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (request, body, done) => {
    if (isRecordSubmission(request)) done(null, body);
    else json(request, (body as Buffer).toString("utf8"), done);
  });
}

export function recordRoutes(app: FastifyInstance, deps: ApiDeps, limits: WriteLimits): void {
  const workers = limits.ingestWorkers ?? 0;
  if (usesRecordWriter(deps, limits)) {
    // A file or PostgreSQL store: parsing and checks on the writer thread, stores on this connection.
    const writer = new RecordWriter({
      location: deps.store.location!,
      chainId: deps.chainId,
      ingestWorkers: workers,
      // The thread's batches go in on this connection, the one reads use (see RecordWriter).
      storeBatch: storesIn(deps.store, deps),
      // ... and its write-ahead log is checkpointed by the thread, so no read waits for the disk.
      checkpointsOnThread: (onThread) =>
        setAutoCheckpoint(deps.store, onThread ? 0 : SQLITE_AUTOCHECKPOINT_PAGES),
      ...(deps.contractWallets ? { contractWallets: deps.contractWallets } : {}),
      onCrash: (error) => app.log.error({ err: error }, "the record writer stopped: restarted"),
      onLog: (line) =>
        app.log.error({ writer: JSON.parse(line) as unknown }, "record writer: request failed"),
    });
    app.addHook("onClose", () => writer.close());
    keepRecordBodiesRaw(app);
    recordSubmissionRoute(
      app,
      limits.perMinute,
      async (request, reply) => {
        const body = (request.body as Buffer | undefined) ?? null;
        const contentType = request.headers["content-type"] ?? null;
        const answer = await writer.write(body, contentType);
        return reply.code(answer.status).type(answer.type).send(answer.body);
      },
      true,
    );
  } else {
    // In memory (one connection) or no workers: stores on the request loop, checks on the pool.
    const pool = workers
      ? new IngestPool(workers, {
          onCrash: (error) => app.log.error({ err: error }, "an ingest worker stopped: replaced"),
        })
      : undefined;
    if (pool) app.addHook("onClose", () => pool.close());
    const ingestor = new RecordIngestor(storesIn(deps.store, deps), deps, pool);
    recordSubmissionRoute(app, limits.perMinute, async (request, reply) => {
      const outcome = await ingestor.ingest(request.body as Submission);
      return reply.code(outcome.created ? 201 : 200).send(outcome);
    });
  }
  app.post(
    "/api/v1/retirements",
    {
      bodyLimit: RECORD_BODY_LIMIT,
      config: { cors: false, rateLimit: { max: limits.perMinute, timeWindow: 60_000 } },
      preParsing: async (_request, _reply, payload) => refuseNonIJson(payload),
      schema: {
        summary: "Retire an agent (a signed, sealed lifecycle record)",
        description:
          "An EIP-712 `Retirement` message (agentId, seasonId, retiredAt; see components) signed by the agent's key. Sealed, appended to the log and stored apart from the agent's inputs; from `retiredAt` the agent is no longer one of its creator's active agents (the creator term), and its pages say retired. 201 with the seal and leaf index, 200 for the same retirement again; 409 AGENT_RETIRED for a second, different one; 404 UNKNOWN_AGENT / UNKNOWN_SEASON; 403 WRONG_SIGNER; 422 STALE_RECORD / BEFORE_REGISTRATION / OUT_OF_SEASON.",
        tags: ["records"],
        body: {
          type: "object",
          additionalProperties: false,
          required: ["message", "signature"],
          properties: { message: { type: "object", maxProperties: 8 }, signature: signatureSchema },
        },
        response: {
          200: retirementResult,
          201: retirementResult,
          "4xx": errorBody,
        },
      },
    },
    async (request, reply) => {
      const outcome = await ingestRetirement(
        deps.store,
        request.body as { message: unknown; signature: unknown },
        deps,
      );
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
          "One sealed record: its canonical body (sha256 of exactly those bytes is the seal), signatures and the text of its erasable fields",
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
              // the text of each erasable field, kept beside the sealed body (erased on request)
              texts: { type: "array", items: textViewSchema },
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
        texts: await textViews(deps.store.db, fieldsOf(row)),
        body: "\u0000body\u0000",
      };
      const text = JSON.stringify(view).replace(RAW_BODY_JSON, () => row.body);
      return reply.type("application/json; charset=utf-8").send(text);
    },
  );
}
