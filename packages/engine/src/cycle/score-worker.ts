/**
 * A score worker's thread (cycle/score-pool.ts starts it): scores the one share it is given, each
 * agent's rows made from the columns they crossed in (cycle/share-codec.ts) when it is scored. It
 * imports the season scorer's own module, not `@augur/scorer`'s index, so its bundle
 * (cycle/in-worker.ts) holds 24 modules, not the package.
 */
import { parentPort } from "node:worker_threads";
import type { ShareAnswer } from "./score-pool";
import { type EncodedShare, scoreShare } from "./share-codec";

const port = parentPort!;
port.once("message", (share: EncodedShare) => {
  let answer: ShareAnswer;
  try {
    answer = { rows: scoreShare(share) };
  } catch (error) {
    answer = { error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(answer);
});
