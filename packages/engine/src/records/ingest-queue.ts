import type { Store } from "../store/open";
import { checkSubmission, type CheckedSubmission, type RecordSigners, type Submission } from "./ingest-check";
import {
  confirmSigners,
  storeRecords,
  type BatchOutcome,
  type IngestContext,
  type IngestResult,
} from "./ingest";
import type { CheckedRecord } from "./ingest-check";
import type { IngestPool } from "./ingest-pool";

type Settled =
  | { readonly checked: CheckedSubmission }
  | { readonly error: unknown }
  /** A reserved place whose request was refused before it named a record. */
  | { readonly cancelled: true };

/** One submission waiting for its turn: settled once its checks are done. */
interface Waiting {
  /** Unset while a reserved place waits for its record. */
  submission?: Submission;
  settled?: Settled;
  /** Set when the signers are known (a contract wallet's come back from the chain). */
  signers?: RecordSigners;
  readonly resolve: (result: IngestResult) => void;
  readonly reject: (error: unknown) => void;
}

type Batch = {
  waiting: Waiting;
  signers: RecordSigners | Promise<RecordSigners>;
  checked: CheckedSubmission;
}[];

/** A place in the line taken on arrival, filled with the record once its request is parsed. */
export interface Reservation {
  ingest(submission: Submission): Promise<IngestResult>;
  /** The request never named a record (refused before): the line moves on without it. */
  cancel(): void;
}

/** The most records one transaction stores: a bound on how long one commit holds the loop. */
export const MAX_BATCH = 64;

/** Stores checked records in one transaction, in order, as `storeRecords` does (its outcomes or its throw). */
export type BatchStorer = (
  records: readonly { readonly checked: CheckedRecord; readonly signers: RecordSigners }[],
) => Promise<BatchOutcome[]>;

/** `storeRecords` on `store`, with `ctx`'s clock and rules. */
export function storesIn(store: Store, ctx: IngestContext): BatchStorer {
  return (records) => storeRecords(store, records, ctx);
}

/**
 * Ingestion for the API: checks run in parallel (on the pool's workers, or inline without one),
 * stores run in arrival order, so the same sequence of submissions gives the same log whatever
 * the pool's size or the workers' speed (which of two records at one moment is the equivocation,
 * whether a record comes before its agent's registration). Whatever is checked and next in line
 * when the store is free goes in one transaction (one commit for the lot: under a steady stream
 * of writes the request loop spends far less on each). A registration whose contract wallet the
 * chain must confirm (EIP-1271) steps out of the line while the chain answers and takes its place
 * at the back when it does, as it did before the pool.
 */
export class RecordIngestor {
  private readonly line: Waiting[] = [];
  private storing = false;

  /**
   * @param storer where batches are stored (`storesIn` a store; the record writer's goes to the
   * request loop's connection).
   * @param commitSpacingMs the least time from one batch's start to the next one's (the record
   * writer gathers a stream's records into fewer, larger batches); 0 stores at once.
   */
  constructor(
    private readonly storer: BatchStorer,
    private readonly ctx: Pick<IngestContext, "chainId" | "contractWallets">,
    private readonly pool?: IngestPool,
    private readonly commitSpacingMs = 0,
  ) {}

  ingest(submission: Submission): Promise<IngestResult> {
    return this.reserve().ingest(submission);
  }

  /**
   * Takes the next place in the line now, for a record whose request is still being read (the
   * record writer parses a body asynchronously): later arrivals wait behind it, so records are
   * stored in the order their requests arrived.
   */
  reserve(): Reservation {
    let resolve!: (result: IngestResult) => void;
    let reject!: (error: unknown) => void;
    const answer = new Promise<IngestResult>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const waiting: Waiting = { resolve, reject };
    this.line.push(waiting);
    const settle = (settled: Settled) => {
      waiting.settled = settled;
      this.drain();
    };
    return {
      ingest: (submission) => {
        waiting.submission = submission;
        void this.check(submission).then(settle);
        return answer;
      },
      cancel: () => settle({ cancelled: true }),
    };
  }

  /** Stores the checked front of the line, batch after batch, until its head is still checking. */
  private drain(): void {
    if (this.storing) return;
    const batch: Batch = [];
    while (batch.length < MAX_BATCH && this.line[0]?.settled !== undefined) {
      const waiting = this.line.shift()!;
      const settled = waiting.settled!;
      if ("cancelled" in settled) continue;
      if ("error" in settled) {
        waiting.reject(settled.error);
        continue;
      }
      const { checked } = settled;
      const submission = waiting.submission!;
      if (waiting.signers !== undefined) batch.push({ waiting, signers: waiting.signers, checked });
      else if (
        checked.walletRecovered !== undefined &&
        checked.walletRecovered !== checked.record.message.wallet
      )
        this.confirmAside(waiting, submission, checked);
      else {
        const signers = confirmSigners(submission, checked, this.ctx);
        signers.catch(() => {}); // answered in storeBatch, which awaits it
        batch.push({ waiting, signers, checked });
      }
    }
    if (batch.length === 0) return;
    this.storing = true;
    const started = Date.now();
    void this.storeBatch(batch).finally(() => {
      const wait = this.commitSpacingMs - (Date.now() - started);
      const next = () => {
        this.storing = false;
        this.drain();
      };
      if (wait > 0) setTimeout(next, wait);
      else next();
    });
  }

  /** A bound wallet's proof (the chain for a contract wallet), then the back of the line. */
  private confirmAside(waiting: Waiting, submission: Submission, checked: CheckedSubmission): void {
    confirmSigners(submission, checked, this.ctx).then(
      (signers) => {
        waiting.signers = signers;
        this.line.push(waiting);
        this.drain();
      },
      (error: unknown) => waiting.reject(error),
    );
  }

  private async storeBatch(line: Batch): Promise<void> {
    // An EOA wallet's proof is checked without the chain; one that fails is refused alone.
    const batch: { waiting: Waiting; signers: RecordSigners; checked: CheckedSubmission }[] = [];
    for (const { waiting, signers, checked } of line) {
      try {
        batch.push({ waiting, signers: await signers, checked });
      } catch (error) {
        waiting.reject(error);
      }
    }
    const records = batch.map(({ checked, signers }) => ({ checked: checked.record, signers }));
    try {
      const outcomes = await this.storer(records);
      outcomes.forEach((outcome, i) => {
        if ("result" in outcome) batch[i]!.waiting.resolve(outcome.result);
        else batch[i]!.waiting.reject(outcome.refused);
      });
    } catch {
      // Not a refusal (the database itself): nothing of the batch was written. One at a time, so
      // one record that cannot be stored is answered with its own error and the rest go in.
      for (const { waiting, checked, signers } of batch) {
        await this.storer([{ checked: checked.record, signers }]).then(
          ([outcome]) =>
            "result" in outcome! ? waiting.resolve(outcome.result) : waiting.reject(outcome!.refused),
          waiting.reject,
        );
      }
    }
  }

  private check(submission: Submission): Promise<Settled> {
    if (this.pool)
      return this.pool.check(submission, this.ctx.chainId).then(
        (checked) => ({ checked }),
        (error: unknown) => ({ error }),
      );
    try {
      return Promise.resolve({ checked: checkSubmission(submission, this.ctx.chainId) });
    } catch (error) {
      return Promise.resolve({ error });
    }
  }
}
