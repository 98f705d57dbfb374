import type { Store } from "../store/open";
import { checkSubmission, type CheckedSubmission, type Submission } from "./ingest-check";
import { confirmSigners, storeRecord, type IngestContext, type IngestResult } from "./ingest";
import type { IngestPool } from "./ingest-pool";

type Settled = { readonly checked: CheckedSubmission } | { readonly error: unknown };

/**
 * Ingestion for the API: checks run in parallel (on the pool's workers, or inline without one),
 * stores run one at a time in arrival order, so the same sequence of submissions gives the same
 * log whatever the pool's size or the workers' speed (which of two records at one moment is
 * the equivocation, whether a record comes before its agent's registration). A registration
 * whose contract wallet the chain must confirm (EIP-1271) steps out of the line while the chain
 * answers and takes its place when it does, as it did before the pool.
 */
export class RecordIngestor {
  private tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly ctx: IngestContext,
    private readonly pool?: IngestPool,
  ) {}

  async ingest(submission: Submission): Promise<IngestResult> {
    const checking = this.check(submission); // starts now, settles without rejecting
    let release = await this.turn();
    try {
      const settled = await checking;
      if ("error" in settled) throw settled.error;
      const { checked } = settled;
      if (
        checked.walletRecovered !== undefined &&
        checked.walletRecovered !== checked.record.message.wallet
      ) {
        release();
        const signers = await confirmSigners(submission, checked, this.ctx);
        release = await this.turn();
        return await storeRecord(this.store, checked.record, this.ctx, signers);
      }
      const signers = await confirmSigners(submission, checked, this.ctx);
      return await storeRecord(this.store, checked.record, this.ctx, signers);
    } finally {
      release();
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

  /** Resolves when every earlier turn is released, to this turn's release (idempotent). */
  private turn(): Promise<() => void> {
    let release!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    const previous = this.tail;
    this.tail = done;
    return previous.then(() => release);
  }
}
