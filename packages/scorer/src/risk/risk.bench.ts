// Bench: `npx tsx packages/scorer/src/risk/risk.bench.ts` (issue 10's load: 10,000 vaults, a year
// of daily holder index each, 50 holdings). Prints times and a same-run baseline ratio; it
// asserts nothing about time, since machines differ.
import { parseVaultsFile } from "./validate";
import { scoreVaults } from "./score-vaults";
import type { VaultInput } from "./types";

const VAULTS = Number(process.env.RISK_BENCH_VAULTS ?? 10_000);
const DAYS = 365;
const HOLDINGS = 50;
const INSTRUMENTS = 300;
const REPEATS = 5;

/** A small deterministic generator (xorshift32) so every run scores the same book. */
function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

function makeVaults(): VaultInput[] {
  const next = random(20261130);
  const start = 1_767_225_600;
  return Array.from({ length: VAULTS }, (_, v) => {
    let index = 1;
    const holder_index = Array.from({ length: DAYS }, (_, d) => {
      index *= 1 + (next() - 0.5) * 0.04;
      return { at: start + d * 86_400, index };
    });
    const holdings = Array.from({ length: HOLDINGS }, () => ({
      instrument: `T${Math.floor(next() * INSTRUMENTS)}`,
      side: next() < 0.7 ? ("long" as const) : ("short" as const),
      usd: next() * 1e5,
    }));
    const known = (value: number) => (next() < 0.2 ? null : value);
    const days_observed = 365;
    return {
      id: `vault-${v}`,
      tvl_usd: next() * 1e7,
      holder_index,
      holdings,
      liquidation_cushion: known(next() * 0.5),
      free_share: known(next()),
      largest_depositor_share: known(next()),
      days_observed,
      days_traded: Math.floor(next() * days_observed),
    };
  });
}

/** The floor: one bare pass that touches and sums every number the scorer reads. */
function baseline(vaults: readonly VaultInput[]): number {
  let sum = 0;
  for (const vault of vaults) {
    for (const point of vault.holder_index ?? []) sum += point.index;
    for (const holding of vault.holdings ?? []) sum += holding.usd;
    sum += (vault.free_share ?? 0) + (vault.liquidation_cushion ?? 0) + (vault.largest_depositor_share ?? 0);
  }
  return sum;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function time<T>(run: () => T): { ms: number; result: T } {
  const started = process.hrtime.bigint();
  const result = run();
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, result };
}

const vaults = makeVaults();
const json = JSON.parse(JSON.stringify({ vaults })) as unknown;
const runs = { baseline: [] as number[], validate: [] as number[], score: [] as number[] };
let scored = 0;
for (let i = 0; i < REPEATS; i++) {
  runs.baseline.push(time(() => baseline(vaults)).ms);
  runs.validate.push(time(() => parseVaultsFile(json)).ms);
  const { ms, result } = time(() => scoreVaults(vaults));
  runs.score.push(ms);
  scored = result.rows.filter((row) => row.score !== null).length;
}

const base = median(runs.baseline);
const validate = median(runs.validate);
const score = median(runs.score);
const total = validate + score;
console.log(`risk-score/v1 bench: ${VAULTS} vaults × ${DAYS} daily index points × ${HOLDINGS} holdings`);
console.log(`  median of ${REPEATS} runs, Node ${process.version}, one thread; ${scored} vaults scored`);
console.log(`  baseline (bare pass summing the same arrays): ${base.toFixed(1)} ms`);
console.log(`  validate (parseVaultsFile):                   ${validate.toFixed(1)} ms`);
console.log(`  score (scoreVaults):                          ${score.toFixed(1)} ms`);
console.log(
  `  validate + score:                             ${total.toFixed(1)} ms (${(total / base).toFixed(1)}× baseline; target < 2000 ms)`,
);
