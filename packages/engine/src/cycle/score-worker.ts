/**
 * A score worker's thread (cycle/score-pool.ts starts it): given the season's header, then batches
 * of agents one message each, it scores each batch as it comes (each agent's rows made from the
 * columns they crossed in, cycle/share-codec.ts), counts the batches done in `progress[slot]` (the
 * caller reads it to know when to send more), and answers every batch's rows at `{ end }`. It
 * imports the season scorer's own module, not `@augur/scorer`'s index, so its bundle
 * (cycle/in-worker.ts) holds 26 modules, not the package.
 */
import { parentPort } from "node:worker_threads";
import type { UnrankedRow } from "@augur/scorer/src/augur/season";
import type { ShareAnswer, ToScoreWorker } from "./score-pool";
import { ShareScorer } from "./share-codec";

const port = parentPort!;
let scorer: ShareScorer | undefined;
let progress: { counts: Int32Array; slot: number } | undefined;
const rows: UnrankedRow[][] = [];
let firstBatchAt = 0;
let error: string | undefined;
port.on("message", (message: ToScoreWorker) => {
  if ("header" in message) {
    scorer = new ShareScorer(message.header);
    progress = { counts: message.progress, slot: message.slot };
  } else if ("share" in message) {
    firstBatchAt ||= performance.timeOrigin + performance.now();
    try {
      if (error === undefined) rows.push(scorer!.score(message.share));
    } catch (failed) {
      error = failed instanceof Error ? failed.message : String(failed);
    }
    Atomics.add(progress!.counts, progress!.slot, 1);
  } else port.postMessage((error === undefined ? { rows, firstBatchAt } : { error }) satisfies ShareAnswer);
});
