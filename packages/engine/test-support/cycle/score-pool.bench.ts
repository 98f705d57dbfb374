/**
 * `npm run bench -- score-pool` (or `npx tsx --expose-gc packages/engine/test-support/cycle/score-pool.bench.ts`):
 * a full-season recompute (the season held in memory, as `augur score --input` holds it) scored
 * by one thread, then across 2 threads (`scoreSeasonInWorkers`, what `augur score --workers 2`
 * runs: this thread scores agents from the first on while a worker is sent batches from the last
 * back; the worker's start, its batches' encoding and crossing, and its answer included, and the
 * serial part printed: this thread alone until the worker began, then waiting for its last batch), printed beside the one-shot hashing
 * floor (one bare sha256 of each snapshot's JSON, `crypto.hash`). The scorer bench's season:
 * BENCH_AGENTS (default 2,000) × BENCH_SNAPSHOTS (default 720) hourly snapshots, with 100
 * decisions, 20 trades and 50 calls per agent. BENCH_ROUNDS (default 3) rounds, the two runs'
 * order swapped each round (the thread that runs second is warmer); medians printed. The worker's
 * script is bundled once per process (esbuild) before the rounds, its cost printed apart (its
 * CPU in esbuild's own process read from /proc). Target: 2 workers ≤ 0.6× one thread's wall
 * time; CPU is process-wide (every thread), and on a shared machine the wall ratio is stretched
 * by load, so the CPU ratio (2 threads' total over one thread's) is the figure to compare, with
 * the load. BENCH_CPU_PROF=dir profiles each worker into dir. The rows' seals of every run must be equal (exit 1 otherwise). No timed assertions.
 */
import { createHash, hash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { scoreSeason, validateSeasonInput, type SeasonInput, type SeasonScores } from "@augur/scorer";
import { benchSeason } from "@augur/scorer/src/augur/bench-season";
import { workerSource } from "../../src/cycle/in-worker";
import { type PoolPhases, scoreSeasonInWorkers } from "../../src/cycle/score-pool";

const AGENTS = Number(process.env.BENCH_AGENTS ?? 2_000);
const SNAPSHOTS = Number(process.env.BENCH_SNAPSHOTS ?? 720);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** BENCH_CPU_PROF=dir: each worker writes its CPU profile there (run the bench with --cpu-prof too for this thread). */
const WORKER_FLAGS = process.env.BENCH_CPU_PROF
  ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
  : undefined;

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

/** CPU (user + system) of this process's child processes still running (esbuild's service), in ms; 0 off Linux. */
function childrenCpuMs(): number {
  let ticks = 0;
  try {
    for (const pid of readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      // Fields after the command's closing parenthesis: state ppid … utime (12th) stime (13th).
      const stat = readFileSync(join("/proc", pid, "stat"), "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) === process.pid) ticks += Number(fields[11]) + Number(fields[12]);
    }
  } catch {
    return 0;
  }
  return ticks * 10; // USER_HZ is 100 on Linux
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
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
const digest = (scores: SeasonScores) =>
  createHash("sha256")
    .update(scores.rows.map((r) => r.seal).join(","))
    .digest("hex")
    .slice(0, 16);
const gc = () => (globalThis as { gc?: () => void }).gc?.();

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
  console.log(
    `floor, one-shot sha256 of each snapshot's JSON: cpu ${s(floor.cpuMs)} (wall ${s(floor.wallMs)})`,
  );
  const children = childrenCpuMs();
  const bundle = await timed(() => workerSource(join(__dirname, "../../src/cycle/score-worker.ts")));
  console.log(
    `worker script bundled once per process: cpu ${s(bundle.cpuMs)} here + ${s(childrenCpuMs() - children)} ` +
      `in esbuild's process (wall ${s(bundle.wallMs)})`,
  );
  const seals = new Set<string>();
  const ones: number[] = [];
  const twos: number[] = [];
  const wallRatios: number[] = [];
  const serial: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    let phases: PoolPhases | undefined;
    const runs = {
      one: () => timed(() => scoreSeason(input)),
      two: () =>
        timed(() =>
          scoreSeasonInWorkers(input, 2, 0, { execArgv: WORKER_FLAGS, onPhases: (p) => (phases = p) }),
        ),
    };
    const order = round % 2 === 1 ? (["one", "two"] as const) : (["two", "one"] as const);
    const result: Partial<Record<"one" | "two", Awaited<ReturnType<typeof runs.one>>>> = {};
    for (const run of order) {
      gc();
      result[run] = await runs[run]();
    }
    const { one, two } = result as Required<typeof result>;
    for (const run of [one, two]) seals.add(digest(run.value));
    ones.push(one.cpuMs);
    twos.push(two.cpuMs);
    wallRatios.push(two.wallMs / one.wallMs);
    console.log(
      `round ${round} (${order.join(" then ")}): 1 thread wall ${s(one.wallMs)}, cpu ${s(one.cpuMs)} = ` +
        `${(one.cpuMs / floor.cpuMs).toFixed(2)}× floor; 2 threads wall ${s(two.wallMs)} = ` +
        `${(two.wallMs / one.wallMs).toFixed(2)}× one thread, cpu ${s(two.cpuMs)} (all threads) = ` +
        `${(two.cpuMs / one.cpuMs).toFixed(2)}× one thread; load ${load()}`,
    );
    if (phases) {
      serial.push(phases.startMs + phases.waitMs);
      console.log(
        `  agents scored here ${phases.here}, in the worker ${phases.workers.join(", ")}; this thread alone ` +
          `until the worker began its first batch ${s(phases.startMs)}, waiting for its last ${s(phases.waitMs)}`,
      );
    }
  }
  console.log(
    `median of ${ROUNDS}: 1 thread cpu ${s(median(ones))}, 2 threads cpu ${s(median(twos))} = ` +
      `${(median(twos) / median(ones)).toFixed(2)}× one thread (target ≤ ~1.15×); wall ratio ` +
      `${median(wallRatios).toFixed(2)}× (target ≤ 0.6×, meaningful on a quiet machine only); ` +
      `serial part (one thread alone: the worker's start, the last wait) ${s(median(serial))}; ` +
      `seals ${[...seals].join(", ")}, every run equal: ${seals.size === 1}; load at the end ${load()}`,
  );
  if (seals.size !== 1) process.exit(1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
