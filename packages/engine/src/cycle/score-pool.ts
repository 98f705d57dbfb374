import { availableParallelism } from "node:os";
import { join } from "node:path";
import {
  scoreSeason,
  SeasonScorer,
  type SeasonInput,
  type SeasonScores,
  type UnrankedRow,
} from "@augur/scorer";
import { startWorker, type WorkerOptions } from "./in-worker";
import { SeasonIndex } from "./season-index";
import { encodeShare } from "./share-codec";

/** Workers a full recompute uses unless told: one per core. */
export const DEFAULT_SCORE_WORKERS = availableParallelism();

/**
 * Records a worker is given at the least: a smaller season is scored faster in one thread than a
 * worker starts and warms up.
 */
export const MIN_RECORDS_PER_WORKER = 20_000;

/** A worker's answer: its agents' unranked rows, or why it could not score them. */
export type ShareAnswer = { readonly rows: UnrankedRow[] } | { readonly error: string };

const WORKER_SCRIPT = join(__dirname, "score-worker.ts");

/**
 * Scores a validated season across `workers` threads (augur-score/v1, docs/augur-score-v1.md): the
 * agents are split into contiguous shares; this thread scores the first share while a worker
 * thread each scores the others, and the rows are ranked here. A worker is given the header
 * (listing every agent: a creator's other agents stay known) and its agents' rows as columns
 * moved to it (cycle/share-codec.ts). An agent's row depends only on its records and the header,
 * so the output is the one-thread output, byte for byte (tested). With one worker, one agent, or
 * fewer than `minRecords` records per worker, the season is scored here alone. `worker`: the
 * workers' options (the bench profiles them with `--cpu-prof`).
 */
export async function scoreSeasonInWorkers(
  input: SeasonInput,
  workers: number,
  minRecords = MIN_RECORDS_PER_WORKER,
  worker: WorkerOptions = {},
): Promise<SeasonScores> {
  if (!Number.isSafeInteger(workers) || workers < 1)
    throw new RangeError(`workers must be ≥ 1, not ${workers}`);
  const records = input.snapshots.length + input.decisions.length + input.trades.length + input.calls.length;
  const n = Math.min(
    workers,
    input.agents.length,
    minRecords > 0 ? Math.floor(records / minRecords) : workers,
  );
  if (n <= 1) return scoreSeason(input);
  const [own, ...others] = contiguousShares(
    input.agents.map((_, k) => k),
    n,
  );
  // The threads load while this one reads the season and encodes their shares.
  const started = await Promise.all(others.map(() => startWorker<ShareAnswer>(WORKER_SCRIPT, worker)));
  const index = new SeasonIndex(input);
  const answers = others.map((agents, w) => {
    const { share, transfer } = encodeShare(input, index, agents);
    return started[w]!.ask(share, transfer);
  });
  const scorer = new SeasonScorer(input);
  const rows = own!.map((k) => scorer.scoreAgent(input.agents[k]!.id, index.records(k)));
  for (const answer of await Promise.all(answers)) {
    if ("error" in answer) throw new Error(`score worker: ${answer.error}`);
    for (const row of answer.rows) rows.push(row);
  }
  return scorer.result(rows);
}

/**
 * `items` in at most `n` contiguous shares of equal size (the last one shorter), in order: how a
 * recompute splits agents across workers (`augur score`, `augur verify` over many agents).
 */
export function contiguousShares<T>(items: readonly T[], n: number): T[][] {
  const size = Math.max(1, Math.ceil(items.length / n));
  return Array.from({ length: Math.ceil(items.length / size) }, (_, s) =>
    items.slice(s * size, (s + 1) * size),
  );
}
