import { availableParallelism } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import {
  scoreSeason,
  SeasonScorer,
  type SeasonInput,
  type SeasonScores,
  type UnrankedRow,
} from "@augur/scorer";
import { bootstrap } from "../records/ingest-pool";

/** Workers a full recompute uses unless told: one per core. */
export const DEFAULT_SCORE_WORKERS = availableParallelism();

/**
 * Records a worker is given at the least: a smaller season is scored faster in one thread than a
 * worker starts (each loads the TypeScript sources afresh).
 */
export const MIN_RECORDS_PER_WORKER = 20_000;

/** One worker's share of a season: the whole header, only its agents' rows, and which agents it scores. */
export interface ScoreShare {
  readonly input: SeasonInput;
  readonly agents: readonly string[];
}

/** A worker's answer: its agents' unranked rows, or why it could not score them. */
export type ShareAnswer = { readonly rows: UnrankedRow[] } | { readonly error: string };

const WORKER_SCRIPT = join(__dirname, "score-worker.ts");

/**
 * Scores a validated season across `workers` worker threads (augur-score/v1, docs/augur-score-v1.md):
 * the agents are split into contiguous shares, each worker scores its share's agents from their own
 * rows (the header, listing every agent, is each worker's: a creator's other agents stay known),
 * and the rows are ranked here. An agent's row depends only on its records and the header, so the
 * output is the one-worker output, byte for byte (tested). With one worker, one agent, or fewer
 * than `minRecords` records per worker, the season is scored here.
 */
export async function scoreSeasonInWorkers(
  input: SeasonInput,
  workers: number,
  minRecords = MIN_RECORDS_PER_WORKER,
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
  const shares = splitSeason(input, n);
  const answers = await Promise.all(shares.map(scoreShare));
  return new SeasonScorer(input).result(answers.flat());
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

/** The season in `n` contiguous shares of its agents, each with only its agents' rows. */
export function splitSeason(input: SeasonInput, n: number): ScoreShare[] {
  const agents = contiguousShares(
    input.agents.map((a) => a.id),
    n,
  );
  const shareOf = new Map(agents.flatMap((ids, s) => ids.map((id) => [id, s] as const)));
  const parts = agents.map(() => ({
    snapshots: [] as SeasonInput["snapshots"][number][],
    decisions: [] as SeasonInput["decisions"][number][],
    trades: [] as SeasonInput["trades"][number][],
    calls: [] as SeasonInput["calls"][number][],
  }));
  const bucket = <K extends keyof (typeof parts)[number]>(list: K) => {
    for (const row of input[list]) (parts[shareOf.get(row.agent)!]![list] as unknown[]).push(row);
  };
  bucket("snapshots");
  bucket("decisions");
  bucket("trades");
  bucket("calls");
  return parts.map((rows, s) => ({ input: { ...input, ...rows }, agents: agents[s]! }));
}

/** One share scored in a worker thread of its own. */
async function scoreShare(share: ScoreShare): Promise<UnrankedRow[]> {
  const answer = await inWorker<ShareAnswer>(WORKER_SCRIPT, JSON.stringify(share));
  if ("rows" in answer) return answer.rows;
  throw new Error(`score worker: ${answer.error}`);
}

/** A worker's message on the way to its answer (`augur verify` reports each agent as it is done). */
export interface WorkerNote {
  readonly note: unknown;
}

/**
 * Runs `script` in a worker thread of its own, given `text` as its one message (JSON text: one
 * string crosses the thread boundary, not a clone of every row object). Messages `{ note }` go to
 * `onNote`; the first other message is the answer, and the worker ends then.
 */
export function inWorker<A>(script: string, text: string, onNote?: (note: unknown) => void): Promise<A> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(bootstrap(script), { eval: true });
    let answered = false;
    worker.on("message", (message: A | WorkerNote) => {
      if (typeof message === "object" && message !== null && "note" in message) {
        onNote?.(message.note);
        return;
      }
      answered = true;
      void worker.terminate();
      resolve(message);
    });
    worker.once("error", reject);
    worker.once("exit", (code) => {
      if (!answered) reject(new Error(`worker ${script} exited with code ${code} before answering`));
    });
    worker.postMessage(text);
  });
}
