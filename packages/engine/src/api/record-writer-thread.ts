/**
 * The record writer thread (`api/record-writer.ts` starts it): its own Fastify that declares
 * `POST /api/v1/records` as the API does, and the record ingestor. Each body the request loop
 * hands over is answered by that route (I-JSON check, JSON parser, schema, checks, batching),
 * so every answer is the one the loop would have given. Its batches are stored by the request
 * loop on its connection; the thread's own connection only reads (the wind-down guard).
 */
import { setPriority } from "node:os";
import type { RecordRefusedError } from "@augur/records";
import { parseIJson } from "@augur/scorer";
import type { MessagePort } from "node:worker_threads";
import type { Submission } from "../records/ingest-check";
import { fromWire, type WireError } from "../records/ingest-errors";
import { IngestPool, nameThisThread } from "../records/ingest-pool";
import type { BatchOutcome } from "../records/ingest";
import { RecordIngestor, type BatchStorer, type Reservation } from "../records/ingest-queue";
import type { ContractWalletCheck } from "../records/wallet";
import { checkpointPassive, dataVersion } from "../store/checkpoints";
import { openStore, type Store } from "../store/open";
import { errorAnswer, errorPayload, installErrorHandlers } from "./errors";
import { apiFastify } from "./fastify";
import {
  CHECKPOINT_INTERVAL_MS,
  COMMIT_SPACING_MS,
  type RecordWriterData,
  type WriterAnswer,
  type WriterMessage,
  type WriterRequest,
} from "./record-writer";
import {
  RECORD_BODY_LIMIT,
  RECORD_SUBMISSION_BODY,
  RECORDS_PATH,
  recordSubmissionRoute,
} from "./routes/records";
import { installWriteGuard, refuseWritesWhenWindingDown } from "./write-guard";

/** The header that tells the writer's route which submission (and place in line) it serves. */
const JOB_HEADER = "x-augur-writer-job";

/**
 * The writer's nice value once it is ready. Linux gives each thread its own (`setpriority` on
 * the calling thread), and the ingest workers it starts inherit it: when reads and writes both
 * want the CPU, the request loop goes first and the writer takes the rest (at +10 it still gets
 * about a tenth of a contended core, and all of an idle one). Elsewhere the call would renice
 * the whole process, so it is left alone.
 */
export const WRITER_NICE = 10;

function yieldToReads(): void {
  if (process.platform !== "linux") return;
  try {
    setPriority(WRITER_NICE);
  } catch {
    // not allowed here: the writer keeps the process's priority
  }
}

export async function runRecordWriter(port: MessagePort, data: RecordWriterData): Promise<void> {
  const send = (message: WriterMessage) => port.postMessage(message);
  // The chain's EIP-1271 answers come from the request loop, which holds the provider.
  const wallets = askLoop<boolean>();
  const contractWallets: ContractWalletCheck = (wallet, digest, signature) =>
    wallets.ask((id) => send({ kind: "wallet", id, wallet, digest, signature }));
  // Batches are stored by the request loop, on its connection (see RecordWriter).
  const stores = askLoop<BatchOutcome[]>();
  const storeBatch: BatchStorer = (records) => stores.ask((id) => send({ kind: "store", id, records }));
  const places = new Map<number, Reservation>();
  // Messages that arrive while the store opens wait for it, in order.
  const ready = (async () => {
    const store = await openStore(data.location, { migrate: false });
    const pool =
      // One check thread is this one: a worker beside it would only add a hop (see RecordWriterData).
      data.ingestWorkers > 1
        ? new IngestPool(data.ingestWorkers, {
            onCrash: (error) =>
              send({ kind: "log", crash: true, message: `an ingest worker stopped: ${error.message}` }),
          })
        : undefined;
    const ingestor = new RecordIngestor(
      storeBatch,
      { chainId: data.chainId, ...(data.contractWallets ? { contractWallets } : {}) },
      pool,
      data.commitSpacingMs ?? COMMIT_SPACING_MS,
    );
    // Its 5xx answers are logged with their stack, by the request loop's logger.
    const stream = { write: (line: string) => send({ kind: "log", crash: false, message: line }) };
    const app = apiFastify({ level: "error", stream });
    installErrorHandlers(app);
    installWriteGuard(app, { store }); // the request loop leaves record submissions to this one
    recordSubmissionRoute(app, Number.MAX_SAFE_INTEGER, async (request, reply) => {
      const id = Number(request.headers[JOB_HEADER]);
      const place = places.get(id)!;
      places.delete(id);
      const outcome = await place.ingest(request.body as Submission);
      return reply.code(outcome.created ? 201 : 200).send(outcome);
    });
    await app.ready();
    // The route's body schema compiled by the route's own compiler (its options, its coercion).
    const validateBody = app.validatorCompiler!({
      schema: RECORD_SUBMISSION_BODY,
      method: "POST",
      url: RECORDS_PATH,
      httpPart: "body",
    }) as (body: unknown) => boolean;
    yieldToReads();
    nameThisThread("augur-writer");
    const checkpoints = checkpointWhileStoring(store);
    const close = async () => {
      await checkpoints.stop();
      await app.close();
      await pool?.close();
      await store.close();
    };
    return { ingestor, app, close, checkpoints, validateBody, guard: windDownGuard(store) };
  })();

  const write = async ({ id, body, contentType }: Extract<WriterRequest, { kind: "write" }>) => {
    const { ingestor, app, guard, validateBody } = await ready;
    // The place in line is taken on arrival, before the body is parsed: stores keep arrival order.
    const place = ingestor.reserve();
    const submission = plainSubmission(body, contentType, validateBody);
    if (submission) {
      send({ kind: "answer", id, answer: await answerDirectly(place, submission, guard, send) });
      return;
    }
    places.set(id, place);
    const res = await app.inject({
      method: "POST",
      url: RECORDS_PATH,
      headers: { ...(contentType === null ? {} : { "content-type": contentType }), [JOB_HEADER]: String(id) },
      ...(body === null ? {} : { payload: Buffer.from(body.buffer, body.byteOffset, body.byteLength) }),
    });
    places.get(id)?.cancel(); // refused before the route's handler named a record
    places.delete(id);
    const type = String(res.headers["content-type"] ?? "application/json; charset=utf-8");
    send({ kind: "answer", id, answer: { status: res.statusCode, type, body: res.body } });
  };

  port.on("message", (request: WriterRequest) => {
    if (request.kind === "write") void write(request);
    else if (request.kind === "wallet") wallets.answer(request, () => request.ok === true);
    else if (request.kind === "stored") {
      void ready.then(({ checkpoints }) => checkpoints.stored());
      stores.answer(request, () =>
        request.outcomes!.map((o) =>
          "result" in o ? o : { refused: fromWire(o.refused) as RecordRefusedError },
        ),
      );
    } else void ready.then(({ close }) => close()).finally(() => process.exit(0));
  });
  await ready;
}

/**
 * The wind-down guard for a plain submission (`refuseWritesWhenWindingDown`), asked again only
 * when the database changed. On SQLite, `PRAGMA data_version` on this connection changes with every
 * commit of any other connection (the request loop's batches, `augur` declaring a wind-down), so
 * a guard that passed at one version passes until the next: a wind-down committed before a
 * submission arrives still refuses it, and a stream of writes costs one pragma a record instead
 * of the guard's queries (measured 15–20 µs against 43–105 µs of CPU). PostgreSQL asks every time.
 */
function windDownGuard(store: Store): () => Promise<void> {
  if (store.dialect !== "sqlite") return () => refuseWritesWhenWindingDown({ store });
  let passedAt: number | null = null;
  return async () => {
    const version = await dataVersion(store);
    if (version === passedAt) return;
    await refuseWritesWhenWindingDown({ store });
    passedAt = version;
  };
}

/**
 * Questions the thread asks the request loop (a contract wallet's EIP-1271 answer, a batch to
 * store): `ask` posts one under a fresh id and waits; `answer` settles it from the loop's reply,
 * with the reply's error or the value `value` reads from it.
 */
function askLoop<T>() {
  const waiting = new Map<number, { resolve: (value: T) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  return {
    ask: (post: (id: number) => void) =>
      new Promise<T>((resolve, reject) => {
        const id = nextId++;
        waiting.set(id, { resolve, reject });
        post(id);
      }),
    answer: (reply: { readonly id: number; readonly error?: WireError }, value: () => T) => {
      const question = waiting.get(reply.id)!;
      waiting.delete(reply.id);
      if (reply.error) question.reject(fromWire(reply.error));
      else question.resolve(value());
    },
  };
}

/**
 * The checkpoints of SQLite's write-ahead log that the request loop's connection leaves to this
 * thread (`CHECKPOINT_INTERVAL_MS`): passive, on this connection, at most once an interval and
 * only after batches were stored; one last at the end. Nothing on PostgreSQL.
 */
function checkpointWhileStoring(store: Store): { stored(): void; stop(): Promise<void> } {
  if (store.dialect !== "sqlite") return { stored: () => {}, stop: async () => {} };
  let pending = false;
  let running: Promise<unknown> = Promise.resolve();
  const checkpoint = () => {
    if (!pending) return;
    pending = false;
    // A failed checkpoint loses nothing (the log keeps every page): the next one retries.
    running = running.then(() => checkpointPassive(store)).catch(() => (pending = true));
  };
  const timer = setInterval(checkpoint, CHECKPOINT_INTERVAL_MS);
  timer.unref();
  return {
    stored: () => void (pending = true),
    stop: async () => {
      clearInterval(timer);
      checkpoint();
      await running;
    },
  };
}

const JSON_TYPE = "application/json; charset=utf-8";
const utf8 = new TextDecoder();

/**
 * A body the route takes as it is: `application/json`, within the size limit, I-JSON, nothing the
 * JSON parser refuses or strips (no `__proto__`, no `constructor`), valid against the route's own
 * body schema. Such a body is answered without the route (`answerDirectly`): going through
 * Fastify's injected request cost the thread ≈ 0.8 ms a record, parsing and checking it 0.01 ms.
 * Anything else — every refusal before the handler — is left to the route, whose answer it is.
 */
function plainSubmission(
  body: Uint8Array | null,
  contentType: string | null,
  validate: (body: unknown) => boolean,
): Submission | undefined {
  if (contentType !== "application/json" || body === null) return undefined;
  if (body.byteLength === 0 || body.byteLength > RECORD_BODY_LIMIT) return undefined;
  const text = utf8.decode(body);
  if (text.includes("__proto__") || text.includes("constructor")) return undefined;
  let value: unknown;
  try {
    value = parseIJson(text);
  } catch {
    return undefined;
  }
  return validate(value) ? (value as Submission) : undefined;
}

/**
 * What the route answers a plain submission, without it: the wind-down guard (its `onRequest`),
 * then the place in line's ingest; the result or the refusal serialised as the route's response
 * schemas serialise them (`api/record-writer.test.ts` compares the two byte for byte).
 */
async function answerDirectly(
  place: Reservation,
  submission: Submission,
  guard: () => Promise<void>,
  send: (message: WriterMessage) => void,
): Promise<WriterAnswer> {
  try {
    try {
      await guard();
    } catch (error) {
      place.cancel();
      throw error;
    }
    const { seal, leafIndex, kind, created } = await place.ingest(submission);
    return {
      status: created ? 201 : 200,
      type: JSON_TYPE,
      body: JSON.stringify({ seal, leafIndex, kind, created }),
    };
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(String(error));
    const { status, code, message } = errorAnswer(failure);
    if (status >= 500) {
      const err = { type: failure.name, message: failure.message, stack: failure.stack };
      send({ kind: "log", crash: false, message: JSON.stringify({ level: 50, err, msg: "request failed" }) });
    }
    return { status, type: JSON_TYPE, body: JSON.stringify(errorPayload(code, message)) };
  }
}
