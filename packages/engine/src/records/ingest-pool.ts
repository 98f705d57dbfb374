import { writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { RecordRefusedError } from "@augur/records";
import { checkSubmission, type CheckedSubmission, type Submission } from "./ingest-check";
import { fromWire, shuttingDown, toWire, type WireError } from "./ingest-errors";

/** One job for a worker: a submission to check for a chain id. */
export interface IngestJob {
  readonly id: number;
  readonly submission: Submission;
  readonly chainId: number;
}

/** A worker's answer: the checked submission, or the error it refused it with. */
export type IngestAnswer =
  | { readonly id: number; readonly checked: CheckedSubmission }
  | { readonly id: number; readonly error: WireError };

/** A worker's work on one job: `checkSubmission`, the CPU-bound half of ingestion. */
export function answerJob({ id, submission, chainId }: IngestJob): IngestAnswer {
  try {
    return { id, checked: checkSubmission(submission, chainId) };
  } catch (error) {
    return { id, error: toWire(error) };
  }
}

/** Workers `augur serve` starts by default: one core stays with the request loop, at most 4. */
export const DEFAULT_INGEST_WORKERS = Math.max(1, Math.min(4, availableParallelism() - 1));

const WORKER_SCRIPT = join(__dirname, "ingest-worker.ts");

/**
 * A worker runs the TypeScript sources as the engine does (tsx, no build step): registered in
 * the worker's own thread, whichever way the main thread was started.
 */
export function bootstrap(script: string): string {
  return `require(${JSON.stringify(require.resolve("tsx/cjs"))});require(${JSON.stringify(script)});`;
}

/**
 * Names the calling thread as `top -H` and `/proc/<pid>/task/<tid>/comm` show it (Linux; at most
 * 15 characters), so an operator or the reads-under-writes bench can tell the writer's threads
 * from V8's. Elsewhere, or if not allowed, the thread keeps its name.
 */
export function nameThisThread(name: string): void {
  if (process.platform !== "linux") return;
  try {
    writeFileSync("/proc/thread-self/comm", name.slice(0, 15));
  } catch {
    // not allowed here: the name stays "node"
  }
}

interface Pending {
  readonly job: IngestJob;
  readonly resolve: (checked: CheckedSubmission) => void;
  readonly reject: (error: Error) => void;
  /** Set once a worker stopped while holding this job: a second stop refuses it. */
  retried: boolean;
}

interface Slot {
  readonly worker: Worker;
  readonly jobs: Map<number, Pending>;
  /** What stopped it, when an uncaught error did. */
  error?: Error;
}

export interface IngestPoolOptions {
  /** The worker's module (tests pass one that stops on cue). */
  readonly script?: string;
  /** Told of each worker that stopped unasked (the server logs it). */
  readonly onCrash?: (error: Error) => void;
}

/**
 * A small pool of worker threads that check submissions off the request loop (signature
 * recovery is most of a write's CPU). Workers start on first use; an idle pool does not keep
 * the process alive. A worker that stops is replaced and its jobs run once more on another;
 * a job that stops two workers is refused (422 UNCHECKABLE_RECORD), storing nothing.
 */
export class IngestPool {
  private readonly slots: Slot[] = [];
  private nextId = 0;
  private closed = false;
  /** Workers that stopped unasked (a crash), for the logs and tests. */
  restarts = 0;

  constructor(
    readonly size: number,
    private readonly options: IngestPoolOptions = {},
  ) {
    if (!Number.isSafeInteger(size) || size < 1)
      throw new RangeError(`ingest pool size must be ≥ 1, not ${size}`);
  }

  check(submission: Submission, chainId: number): Promise<CheckedSubmission> {
    if (this.closed) return Promise.reject(shuttingDown());
    return new Promise((resolve, reject) => {
      this.dispatch({ job: { id: this.nextId++, submission, chainId }, resolve, reject, retried: false });
    });
  }

  /** Stops every worker; checks still pending are refused (503). */
  async close(): Promise<void> {
    this.closed = true;
    const slots = this.slots.splice(0);
    for (const slot of slots) for (const pending of slot.jobs.values()) pending.reject(shuttingDown());
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  /** The least busy worker takes the job; a new one starts while the pool is below its size. */
  private dispatch(pending: Pending): void {
    let slot = this.slots.reduce<Slot | undefined>(
      (best, s) => (best === undefined || s.jobs.size < best.jobs.size ? s : best),
      undefined,
    );
    if (slot === undefined || (slot.jobs.size > 0 && this.slots.length < this.size)) slot = this.start();
    if (slot.jobs.size === 0) slot.worker.ref();
    slot.jobs.set(pending.job.id, pending);
    slot.worker.postMessage(pending.job);
  }

  private start(): Slot {
    const worker = new Worker(bootstrap(this.options.script ?? WORKER_SCRIPT), { eval: true });
    const slot: Slot = { worker, jobs: new Map() };
    worker.unref();
    worker.on("message", (answer: IngestAnswer) => {
      const pending = slot.jobs.get(answer.id);
      if (!pending) return;
      slot.jobs.delete(answer.id);
      if (slot.jobs.size === 0) worker.unref();
      if ("checked" in answer) pending.resolve(answer.checked);
      else pending.reject(fromWire(answer.error));
    });
    // An uncaught error in the worker ends it: 'exit' follows and does the recovery.
    worker.on("error", (error) => (slot.error = error));
    worker.on("exit", (code) => this.stopped(slot, code));
    this.slots.push(slot);
    return slot;
  }

  private stopped(slot: Slot, code: number): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return; // closed
    this.slots.splice(index, 1);
    this.restarts += 1;
    this.options.onCrash?.(slot.error ?? new Error(`ingest worker exited with code ${code}`));
    for (const pending of slot.jobs.values()) {
      if (pending.retried) pending.reject(uncheckable());
      else {
        pending.retried = true;
        this.dispatch(pending);
      }
    }
  }
}

function uncheckable(): RecordRefusedError {
  return new RecordRefusedError(
    422,
    "UNCHECKABLE_RECORD",
    "checking this record stopped two ingest workers: nothing was stored",
  );
}
