import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { RecordRefusedError } from "@augur/records";
import { bootstrap } from "../records/ingest-pool";
import { shuttingDown, toWire, type WireError } from "../records/ingest-errors";
import type { IngestResult } from "../records/ingest";
import type { BatchStorer } from "../records/ingest-queue";
import type { ContractWalletCheck } from "../records/wallet";
import type { StoreLocation } from "../store/location";

/** What the writer thread needs to start: plain data (it crosses to the thread). */
export interface RecordWriterData {
  readonly location: StoreLocation;
  readonly chainId: number;
  /**
   * Threads that check the records (fields, signatures): 1 (or 0) is the writer thread itself;
   * more are that many ingest workers beside it. A single worker would do the same work as the
   * writer thread plus the hop to it and back (measured: 0.03–0.05 ms of CPU a record for the
   * structured clones and wake-ups), on a thread of the same priority.
   */
  readonly ingestWorkers: number;
  /** Whether the request loop answers EIP-1271 questions (it holds the chain's provider). */
  readonly contractWallets: boolean;
  /** The least time between two of the writer's commits (default `COMMIT_SPACING_MS`). */
  readonly commitSpacingMs?: number;
}

/**
 * The least time between two stores of the writer's batches. Batches are stored on the request
 * loop's connection (see `RecordWriter`), where a commit costs its fixed part once per batch: under
 * a steady stream, records gather for up to 100 ms and go in together. A lone write is not delayed.
 */
export const COMMIT_SPACING_MS = 100;

/**
 * How often the writer thread checkpoints SQLite's write-ahead log (copies it into the file and
 * syncs), on its own connection, while the request loop's connection that stores the batches
 * never does: a checkpoint waits for the disk, and on the loop that wait stalled every read behind
 * it (measured: half of the loop's time per stored record went to commits that checkpointed).
 */
export const CHECKPOINT_INTERVAL_MS = 1_000;

/** One record's outcome of a stored batch, as it crosses back to the writer thread. */
export type WireOutcome = { readonly result: IngestResult } | { readonly refused: WireError };

/** From the request loop to the writer thread. */
export type WriterRequest =
  | {
      readonly kind: "write";
      readonly id: number;
      /** Null when the request had no body to parse (no content type, no length). */
      readonly body: Uint8Array | null;
      readonly contentType: string | null;
    }
  | { readonly kind: "wallet"; readonly id: number; readonly ok?: boolean; readonly error?: WireError }
  /** A batch's outcomes, or the error that rolled it back. */
  | {
      readonly kind: "stored";
      readonly id: number;
      readonly outcomes?: readonly WireOutcome[];
      readonly error?: WireError;
    }
  | { readonly kind: "close" };

/** From the writer thread to the request loop. */
export type WriterMessage =
  | { readonly kind: "answer"; readonly id: number; readonly answer: WriterAnswer }
  | {
      readonly kind: "wallet";
      readonly id: number;
      readonly wallet: string;
      readonly digest: string;
      readonly signature: string;
    }
  /** A batch of checked records to store on the request loop's connection. */
  | { readonly kind: "store"; readonly id: number; readonly records: Parameters<BatchStorer>[0] }
  /** A worker of the writer that stopped, or a line the writer's own logger wrote (5xx). */
  | { readonly kind: "log"; readonly crash: boolean; readonly message: string };

/** The HTTP answer to one submission, as the writer's own route gave it. */
export interface WriterAnswer {
  readonly status: number;
  readonly type: string;
  readonly body: string;
}

export interface RecordWriterOptions extends Omit<RecordWriterData, "contractWallets"> {
  readonly contractWallets?: ContractWalletCheck;
  /** Stores the writer's batches: `storeRecords` on the request loop's own connection. */
  readonly storeBatch: BatchStorer;
  /** The thread's module (tests pass one that stops on cue). */
  readonly script?: string;
  /** Told when the thread stopped unasked, or an ingest worker of it did (the server logs it). */
  readonly onCrash?: (error: Error) => void;
  /** Told of each line the writer's logger writes (its 5xx answers, with their stack). */
  readonly onLog?: (line: string) => void;
  /**
   * Told when the thread takes over the write-ahead log's checkpoints of the connection that
   * stores its batches (true: that connection stops checkpointing, see `CHECKPOINT_INTERVAL_MS`)
   * and when it gives them back (false: it stopped).
   */
  readonly checkpointsOnThread?: (onThread: boolean) => Promise<void>;
}

const WRITER_SCRIPT = join(__dirname, "record-writer-entry.ts");
/** How long `close` waits for the thread to close its store before it ends it. */
const CLOSE_TIMEOUT_MS = 10_000;

interface Pending {
  readonly resolve: (answer: WriterAnswer) => void;
  readonly reject: (error: Error) => void;
}

/**
 * The request loop's side of the record writer: one thread that parses, validates and checks
 * record submissions and batches them in arrival order (`RecordIngestor`), and answers each
 * after its batch's commit. The loop hands over the body's bytes and stores the batches the
 * thread sends back on its own connection (`storeBatch`): a commit from another connection would
 * make SQLite drop the page cache of the one that serves reads (measured: a score read went from
 * 0.021 ms to 0.258 ms under a foreign commit every 10 ms), so reads keep their latency while
 * agents write. The thread starts on the first
 * submission; one that stops unasked fails its pending submissions with 503 and a new one starts
 * on the next; `close` lets every pending submission finish, then closes the thread's store.
 */
export class RecordWriter {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private closed = false;
  private drained: (() => void) | undefined;
  /** Threads that stopped unasked (a crash), for the logs and tests. */
  restarts = 0;

  constructor(private readonly options: RecordWriterOptions) {}

  write(body: Uint8Array | null, contentType: string | null): Promise<WriterAnswer> {
    if (this.closed) return Promise.reject(shuttingDown());
    const worker = this.worker ?? this.start();
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      if (this.pending.size === 0) worker.ref();
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ kind: "write", id, body, contentType } satisfies WriterRequest);
    });
  }

  /** Refuses new submissions (503), lets pending ones be answered, then stops the thread. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.pending.size > 0) await new Promise<void>((resolve) => (this.drained = resolve));
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    worker.ref();
    const exited = new Promise((resolve) => worker.once("exit", resolve));
    worker.postMessage({ kind: "close" } satisfies WriterRequest);
    const timer = setTimeout(() => void worker.terminate(), CLOSE_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
    await this.handCheckpoints(false);
  }

  private start(): Worker {
    const {
      script,
      onCrash: _,
      onLog: __,
      contractWallets,
      storeBatch: ___,
      checkpointsOnThread: ____,
      ...data
    } = this.options;
    const workerData: RecordWriterData = { ...data, contractWallets: contractWallets !== undefined };
    const worker = new Worker(bootstrap(script ?? WRITER_SCRIPT), { eval: true, workerData });
    let failure: Error | undefined;
    worker.unref();
    worker.on("message", (message: WriterMessage) => this.receive(worker, message));
    // An uncaught error in the thread ends it: 'exit' follows and does the recovery.
    worker.on("error", (error) => (failure = error));
    worker.on("exit", (code) => {
      if (this.worker !== worker) return; // closed, or already replaced
      this.worker = undefined;
      this.restarts += 1;
      void this.handCheckpoints(false);
      this.options.onCrash?.(failure ?? new Error(`record writer exited with code ${code}`));
      for (const [id, pending] of this.pending) this.settle(id, () => pending.reject(writerStopped()));
    });
    this.worker = worker;
    void this.handCheckpoints(true);
    return worker;
  }

  /** The serving connection's checkpoints to the thread (true) or back (false); a failure is logged. */
  private async handCheckpoints(onThread: boolean): Promise<void> {
    try {
      await this.options.checkpointsOnThread?.(onThread);
    } catch (error) {
      this.options.onCrash?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private receive(worker: Worker, message: WriterMessage): void {
    if (message.kind === "answer") {
      const pending = this.pending.get(message.id);
      if (pending) this.settle(message.id, () => pending.resolve(message.answer));
      if (this.pending.size === 0 && this.worker === worker) worker.unref();
    } else if (message.kind === "store") {
      const reply = (answer: WriterRequest) => worker.postMessage(answer);
      this.options.storeBatch(message.records).then(
        (outcomes) =>
          reply({
            kind: "stored",
            id: message.id,
            outcomes: outcomes.map((o) => ("result" in o ? o : { refused: toWire(o.refused) })),
          }),
        (error: unknown) => reply({ kind: "stored", id: message.id, error: toWire(error) }),
      );
    } else if (message.kind === "wallet") {
      const { id, wallet, digest, signature } = message;
      const reply = (answer: WriterRequest) => worker.postMessage(answer);
      this.options.contractWallets!(wallet, digest, signature).then(
        (ok) => reply({ kind: "wallet", id, ok }),
        (error: unknown) => reply({ kind: "wallet", id, error: toWire(error) }),
      );
    } else if (message.crash) this.options.onCrash?.(new Error(message.message));
    else this.options.onLog?.(message.message);
  }

  private settle(id: number, answer: () => void): void {
    this.pending.delete(id);
    answer();
    if (this.pending.size === 0) this.drained?.();
  }
}

function writerStopped(): RecordRefusedError {
  return new RecordRefusedError(
    503,
    "WRITER_RESTARTED",
    "the record writer stopped and was restarted: send the record again (one already stored is answered 200 with its seal)",
  );
}
