/**
 * A score worker's thread (cycle/score-pool.ts starts it): scores the one share it is given.
 * It imports the season scorer's own module, not `@augur/scorer`'s index: the worker loads 24
 * modules through tsx instead of the whole package, a third of its start (docs/benchmarks.md).
 */
import { parentPort } from "node:worker_threads";
import { scoreSeasonAgents } from "@augur/scorer/src/augur/season";
import type { ScoreShare, ShareAnswer } from "./score-pool";

const port = parentPort!;
port.once("message", (text: string) => {
  let answer: ShareAnswer;
  try {
    const share = JSON.parse(text) as ScoreShare;
    answer = { rows: scoreSeasonAgents(share.input, new Set(share.agents)) };
  } catch (error) {
    answer = { error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(answer);
});
