// Referee bench: `npx tsx packages/scorer/src/referee/referee.bench.ts [agents] [predictions]`.
// Prints figures and the ratio to a same-run baseline (the coin stream alone); asserts no times.
import { hash } from "node:crypto";
import { seal } from "../seal";
import { cohortSeed, coinStreamBytes } from "./coin-stream";
import { MONKEYS } from "./constants";
import { parseRefereeInput } from "./input";
import { refereeLeaderboard } from "./referee";
import { sha256CounterStream } from "./sha256-counter";
import { syntheticSeason } from "./synthetic-input";

const agents = Number(process.argv[2] ?? 1000);
const perAgent = Number(process.argv[3] ?? 500);

function time<T>(work: () => T): [T, number] {
  const start = performance.now();
  const value = work();
  return [value, (performance.now() - start) / 1000];
}

const season = syntheticSeason({ seed: 2026, agents, predictionsPerAgent: perAgent });
const [input, parseSeconds] = time(() => parseRefereeInput(season));
const [board, refereeSeconds] = time(() => refereeLeaderboard(input));
const [, sealSeconds] = time(() => seal(season));

// Baseline: the same coin bits (each agent's seed, 2,048 × its scored calls) and nothing else.
const cohorts = board.agents.map((a) => ({
  seed: cohortSeed(input.epochText, a.agent),
  calls: a.scoredCalls,
}));
const blocksOf = (calls: number) => Math.ceil(coinStreamBytes(calls, MONKEYS) / 32);
const scratch = new Uint8Array(32 * blocksOf(Math.max(0, ...cohorts.map((c) => c.calls))));
const [, streamSeconds] = time(() => {
  for (const c of cohorts) sha256CounterStream(c.seed, scratch, blocksOf(c.calls));
});
const [, nodeStreamSeconds] = time(() => {
  const message = Buffer.alloc(36);
  for (const c of cohorts) {
    message.set(c.seed);
    for (let block = 0; block < blocksOf(c.calls); block++) {
      message.writeUInt32BE(block, 32);
      hash("sha256", message, "buffer");
    }
  }
});

const calls = board.agents.reduce((sum, a) => sum + a.scoredCalls, 0);
const flips = calls * MONKEYS;
const fmt = (s: number) => `${s.toFixed(2)} s`;
console.log(
  `referee bench: ${agents} agents × ${perAgent} predictions × ${MONKEYS} monkeys, Node ${process.version}`,
);
console.log(`  scored calls ${calls.toLocaleString("en")}, coin flips ${flips.toLocaleString("en")}`);
console.log(`  validate input                      ${fmt(parseSeconds)}`);
console.log(`  referee (mu, schedules, percentiles) ${fmt(refereeSeconds)}   target < 20 s`);
console.log(`  seal of the input (leaderboard)     ${fmt(sealSeconds)}`);
console.log(
  `  baseline: coin stream alone         ${fmt(streamSeconds)}   (node:crypto per block: ${fmt(nodeStreamSeconds)})`,
);
console.log(`  referee / stream alone              ${(refereeSeconds / streamSeconds).toFixed(2)}×`);
console.log(`  ns per coin flip                    ${((refereeSeconds * 1e9) / flips).toFixed(2)}`);
