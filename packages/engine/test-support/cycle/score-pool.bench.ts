/**
 * `npm run bench -- score-pool` (or `npx tsx --expose-gc packages/engine/test-support/cycle/score-pool.bench.ts`):
 * a full-season recompute (the season held in memory, as `augur score --input` holds it) scored
 * by one thread, then across 2 worker threads (`scoreSeasonInWorkers`, what `augur score --workers 2`
 * runs; each worker's start, share copy and answer included), printed beside the one-shot hashing
 * floor (one bare sha256 of each snapshot's JSON, `crypto.hash`). The scorer bench's season:
 * BENCH_AGENTS (default 2,000) × BENCH_SNAPSHOTS (default 720) hourly snapshots, with 100
 * decisions, 20 trades and 50 calls per agent. Target: 2 workers ≤ 0.6× one worker's wall time. CPU is process-wide (every thread), so
 * on a shared machine the wall ratio is stretched by load; both are printed with the load. The
 * rows' seals of both runs must be equal (exit 1 otherwise). No timed assertions.
 */
import { createHash, hash } from "node:crypto";
import { loadavg } from "node:os";
import { scoreSeason, validateSeasonInput, type SeasonInput, type SeasonScores } from "@augur/scorer";
import { benchSeason } from "@augur/scorer/src/augur/bench-season";
import { scoreSeasonInWorkers } from "../../src/cycle/score-pool";

const AGENTS = Number(process.env.BENCH_AGENTS ?? 2_000);
const SNAPSHOTS = Number(process.env.BENCH_SNAPSHOTS ?? 720);

/** The scorer bench's season (packages/scorer/src/augur/bench-season.ts), whole and validated. */
function season(): SeasonInput {
  const { header, agentRecords } = benchSeason(AGENTS, SNAPSHOTS);
  const input = {
    ...header,
    snapshots: [] as unknown[],
    decisions: [] as unknown[],
    trades: [] as unknown[],
    calls: [] as unknown[],
  };
  for (let a = 0; a < AGENTS; a++) {
    const records = agentRecords(a);
    for (const list of ["snapshots", "decisions", "trades", "calls"] as const)
      for (const row of records[list]) input[list].push(row);
  }
  return validateSeasonInput(input);
}

/** Wall and process-wide CPU (user + system, every thread) of `fn`. */
async function timed<T>(fn: () => Promise<T> | T): Promise<{ value: T; wallMs: number; cpuMs: number }> {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const value = await fn();
  const used = process.cpuUsage(cpu);
  return { value, wallMs: performance.now() - wall, cpuMs: (used.user + used.system) / 1000 };
}
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
const digest = (scores: SeasonScores) =>
  createHash("sha256")
    .update(scores.rows.map((r) => r.seal).join(","))
    .digest("hex")
    .slice(0, 16);

async function main() {
  const input = season();
  console.log(
    `full-season recompute: ${AGENTS.toLocaleString("en")} agents × ${SNAPSHOTS} snapshots ` +
      `(${input.snapshots.length.toLocaleString("en")} snapshots); node ${process.version}; load ${load()}`,
  );
  const floor = await timed(() => {
    let xor = 0;
    for (const row of input.snapshots) xor ^= hash("sha256", JSON.stringify(row), "binary").charCodeAt(0);
    return xor;
  });
  (globalThis as { gc?: () => void }).gc?.();
  const one = await timed(() => scoreSeason(input));
  (globalThis as { gc?: () => void }).gc?.();
  const two = await timed(() => scoreSeasonInWorkers(input, 2, 0));
  const same = digest(one.value) === digest(two.value);
  console.log(
    `floor, one-shot sha256 of each snapshot's JSON: cpu ${s(floor.cpuMs)} (wall ${s(floor.wallMs)})`,
  );
  console.log(
    `1 thread:  wall ${s(one.wallMs)}, cpu ${s(one.cpuMs)} = ${(one.cpuMs / floor.cpuMs).toFixed(2)}× floor`,
  );
  console.log(
    `2 workers: wall ${s(two.wallMs)} = ${(two.wallMs / one.wallMs).toFixed(2)}× one thread (target ≤ 0.6×), ` +
      `cpu ${s(two.cpuMs)} (all threads) = ${(two.cpuMs / one.cpuMs).toFixed(2)}× one thread; ` +
      `seals ${digest(two.value)}, equal to one thread's: ${same}; load at the end ${load()}`,
  );
  if (!same) process.exit(1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
