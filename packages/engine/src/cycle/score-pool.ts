import { availableParallelism } from "node:os";
import { join } from "node:path";
import {
  scoreSeason,
  SeasonScorer,
  type SeasonHeader,
  type SeasonInput,
  type SeasonScores,
  type UnrankedRow,
} from "@augur/scorer";
import { type StartedWorker, startWorker, type WorkerOptions } from "./in-worker";
import { LISTS, SeasonIndex } from "./season-index";
import { type EncodedShare, ShareEncoder } from "./share-codec";

/** Workers a full recompute uses unless told: one per core. */
export const DEFAULT_SCORE_WORKERS = availableParallelism();

/**
 * Records a worker is given at the least: a smaller season is scored faster in one thread than a
 * worker starts and warms up.
 */
export const MIN_RECORDS_PER_WORKER = 20_000;

/**
 * Records in one batch sent to a worker: small enough that the worker starts scoring at once and
 * the threads end together (the last batches wait at most a few of these), large enough that a
 * batch's message costs little beside its scoring.
 */
const BATCH_RECORDS = 20_000;
/** Batches a worker is sent ahead of those it has scored: it never waits for the next one. */
const AHEAD = 2;

/** What a score worker is sent: the header first, then batches, then `{ end }`. */
export type ToScoreWorker =
  | { readonly header: SeasonHeader; readonly progress: Int32Array; readonly slot: number }
  | { readonly share: EncodedShare }
  | { readonly end: true };

/**
 * A worker's answer: each batch's unranked rows, in the order sent, and when (ms since the epoch,
 * `performance.timeOrigin + performance.now()`) it began its first batch; or why it could not score them.
 */
export type ShareAnswer =
  | { readonly rows: UnrankedRow[][]; readonly firstBatchAt: number }
  | { readonly error: string };

/** Where a recompute's wall time went, for the bench (`PoolOptions.onPhases`). */
export interface PoolPhases {
  /** Agents this thread scored, and each worker scored. */
  readonly here: number;
  readonly workers: readonly number[];
  /** Until the last worker began its first batch: this thread alone (ms). */
  readonly startMs: number;
  /** This thread waiting for the workers' last batches and answers (ms). */
  readonly waitMs: number;
}

export interface PoolOptions extends WorkerOptions {
  /** Records in one batch (default BATCH_RECORDS; the tests send one agent a batch). */
  readonly batchRecords?: number;
  /** Told where the wall time went (not called when the season is scored in this thread alone). */
  readonly onPhases?: (phases: PoolPhases) => void;
  /**
   * Workers started before the season was read (`startScoreWorkers`): used instead of new ones,
   * those not needed stopped.
   */
  readonly started?: Promise<StartedWorker<ShareAnswer>[]>;
}

/**
 * `count` score workers started now, so their start overlaps reading the season (`augur score`
 * starts them before it reads the file): give them to `scoreSeasonInWorkers` as `started`.
 */
export function startScoreWorkers(
  count: number,
  options: WorkerOptions = {},
): Promise<StartedWorker<ShareAnswer>[]> {
  return Promise.all(Array.from({ length: count }, () => startWorker<ShareAnswer>(WORKER_SCRIPT, options)));
}

const WORKER_SCRIPT = join(__dirname, "score-worker.ts");

/** A worker and the batches (agents' places) it was sent. */
interface Helper {
  readonly worker: StartedWorker<ShareAnswer>;
  readonly encoder: ShareEncoder;
  readonly batches: number[][];
}

/**
 * Scores a validated season across `workers` threads (augur-score/v1, docs/augur-score-v1.md):
 * this thread scores agents from the first on while each worker is sent batches of agents from
 * the last back (about BATCH_RECORDS records each, fewer as the agents left get few, a batch sent
 * whenever the worker has fewer than AHEAD waiting), until the two ends meet: a worker starts scoring as soon as its first batch is
 * there, and a thread that gets less of a core simply scores fewer agents. A worker is given the
 * header first (listing every agent: a creator's other agents stay known), then each batch as
 * columns moved to it (cycle/share-codec.ts); the rows are ranked here. An agent's row depends only
 * on its records and the header, so the output is the one-thread output, byte for byte (tested).
 * With one worker, one agent, or fewer than `minRecords` records per worker, the season is scored
 * here alone. `options`: the workers' options (the bench profiles them with `--cpu-prof`) and the
 * bench's phases.
 */
export async function scoreSeasonInWorkers(
  input: SeasonInput,
  workers: number,
  minRecords = MIN_RECORDS_PER_WORKER,
  options: PoolOptions = {},
): Promise<SeasonScores> {
  if (!Number.isSafeInteger(workers) || workers < 1)
    throw new RangeError(`workers must be ≥ 1, not ${workers}`);
  const records = input.snapshots.length + input.decisions.length + input.trades.length + input.calls.length;
  const n = Math.min(
    workers,
    input.agents.length,
    minRecords > 0 ? Math.floor(records / minRecords) : workers,
  );
  const began = performance.timeOrigin + performance.now();
  // The threads load while this one indexes the season and encodes their first batches.
  const ready = options.started ? await options.started : [];
  for (const unneeded of ready.splice(Math.max(0, n - 1))) unneeded.stop();
  if (n <= 1) return scoreSeason(input);
  const started = [...ready, ...(await startScoreWorkers(n - 1 - ready.length, options))];
  try {
    return await scoreAcross(input, started, options, began);
  } finally {
    for (const worker of started) worker.stop(); // answered already, unless this thread failed
  }
}

/** `scoreSeasonInWorkers` with its workers `started`. */
async function scoreAcross(
  input: SeasonInput,
  started: readonly StartedWorker<ShareAnswer>[],
  options: PoolOptions,
  began: number,
): Promise<SeasonScores> {
  const progress = new Int32Array(new SharedArrayBuffer(4 * started.length));
  const { season, as_of, agents, prior_scores, inputs_log_size } = input;
  const header: SeasonHeader = { season, as_of, agents, prior_scores, inputs_log_size };
  started.forEach((w, slot) => w.send({ header, progress, slot } satisfies ToScoreWorker));
  const index = new SeasonIndex(input);
  const helpers: Helper[] = started.map((w) => ({
    worker: w,
    encoder: new ShareEncoder(index),
    batches: [],
  }));
  const scorer = new SeasonScorer(input);
  const rows: UnrankedRow[] = new Array<UnrankedRow>(agents.length);
  let next = 0; // this thread's next agent
  let end = agents.length; // the workers have been sent the agents from here on
  const batchRecords = options.batchRecords ?? BATCH_RECORDS;
  const recordsOf = (k: number) => LISTS.reduce((sum, list) => sum + index.count(list, k), 0);
  let left = agents.reduce((sum, _, k) => sum + recordsOf(k), 0); // records of agents next to end
  for (;;) {
    for (const [slot, helper] of helpers.entries()) {
      while (helper.batches.length - Atomics.load(progress, slot) < AHEAD) {
        // Batches shrink as the agents left do, so the threads end close together.
        const most = Math.min(batchRecords, left / (2 * AHEAD * (helpers.length + 1)));
        const batch: number[] = [];
        for (let size = 0; size < most && end > next + 1; size += recordsOf(end)) {
          batch.unshift(--end);
          left -= recordsOf(end);
        }
        if (batch.length === 0) break;
        const { share, transfer } = helper.encoder.encode(batch);
        helper.worker.send({ share } satisfies ToScoreWorker, transfer);
        helper.batches.push(batch);
      }
    }
    if (next >= end) break;
    rows[next] = scorer.scoreAgent(agents[next]!.id, index.records(next));
    left -= recordsOf(next++);
  }
  const waiting = performance.now();
  const answers = await Promise.all(helpers.map((h) => h.worker.ask({ end: true } satisfies ToScoreWorker)));
  const firstBatches = answers.map((answer, w) => {
    if ("error" in answer) throw new Error(`score worker: ${answer.error}`);
    helpers[w]!.batches.forEach((batch, b) => batch.forEach((k, j) => (rows[k] = answer.rows[b]![j]!)));
    return answer.firstBatchAt || began; // a worker sent no batch (a small season) began with this thread
  });
  options.onPhases?.({
    here: next,
    workers: helpers.map((h) => h.batches.reduce((sum, batch) => sum + batch.length, 0)),
    startMs: Math.max(...firstBatches) - began,
    waitMs: performance.now() - waiting,
  });
  return scorer.result(rows);
}

/**
 * `items` in at most `n` contiguous shares of equal size (the last one shorter), in order: how
 * `augur verify` over many agents splits them across workers.
 */
export function contiguousShares<T>(items: readonly T[], n: number): T[][] {
  const size = Math.max(1, Math.ceil(items.length / n));
  return Array.from({ length: Math.ceil(items.length / size) }, (_, s) =>
    items.slice(s * size, (s + 1) * size),
  );
}
