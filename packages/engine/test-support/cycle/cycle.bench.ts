/**
 * `npm run bench -- cycle` (or `npx tsx --expose-gc packages/engine/test-support/cycle/cycle.bench.ts`):
 * one full hourly cycle — `runCycle` with a keeper that anchors at once, the augur-score/v1
 * scorer and the risk rows — over BENCH_AGENTS agents (default 10,000) with BENCH_HOURS hours of
 * hourly records each (default 720, a full season: 8.9 million records, seeded in bulk in about
 * 6 minutes by `bench-season.ts`, in a child process), in a temporary SQLite file; the cycles run
 * in this one process (JavaScript and SQLite share one core).
 *
 * Four cycles of the incremental scorer (the cycle's default) are timed: the season's first in this
 * process (the row cache is empty, so it reads and decodes the whole season, and every agent's
 * fold is built), the next two hours', each after one more hour of snapshots has been ingested
 * (they read only the records anchored since and advance each fold by them; the first cycle's
 * anchored scores feed the creator term): the steady state of a running `augur cycle`; and the
 * first cycle after a restart (a new scorer and an empty row cache: the folds are read from
 * score_states, the season's rows read again). Each prints its CPU and wall
 * time, the time up to each of its progress lines, and its own peak RSS (Linux: the mark is reset
 * before it); then the memory the row cache holds between cycles. Printed beside each, measured in
 * the same run after both: the floor of reading and decoding every input row afresh and of
 * scoring them in memory with the scorer alone; the stored score seals are checked against that
 * cold read and score at the same anchored size (a mismatch exits 1), and a digest of the score
 * and risk seals is printed, to compare across versions. BENCH_DB=<file> seeds that file once
 * and reuses it (cycles then add their rows to it: delete it to measure from scratch).
 * BENCH_ACTIVE_EVERY=n ingests the next hours' snapshots of every n-th agent only (the rest have no
 * new risk input); BENCH_RISK_STORAGE=every-hour has the risk step read and store every vault every
 * hour (the reference it stores on change against). No timed assertions. BENCH_PROFILE=<dir>
 * writes a V8 CPU profile of each timed cycle there (`cycle-<n>.cpuprofile`, n = 1..4), so one
 * steady hour is profiled without the seeding or the baselines around it.
 *
 * Re-running at scale (docs/benchmarks.md, "current code at the issue's scale"):
 * - BENCH_DB=<file>: seed once into a pristine file, then copy it before each run (cycles add rows):
 *   `BENCH_SEED_ONLY=1 BENCH_DB=seed.sqlite nice -n 10 npx tsx --expose-gc <this file>`, then
 *   `cp seed.sqlite run.sqlite && BENCH_DB=run.sqlite npx tsx --expose-gc <this file>`.
 * - BENCH_PG=<postgres URL>: the store is that PostgreSQL database (seeded by `bench-season-pg.ts`
 *   when its log is empty, else reused as it is). A throw-away cluster (PostgreSQL refuses to run as
 *   root: run these as its owner, e.g. `su postgres -c '…'`; stop it when done):
 *     initdb -D <dir>/data -U augur_bench --auth=trust
 *     nice -n 10 pg_ctl -D <dir>/data -l <dir>/log -w -o "-p 5433 -k <dir> -c listen_addresses=127.0.0.1
 *       -c shared_buffers=512MB -c fsync=off -c synchronous_commit=off -c max_wal_size=8GB" start
 *     createdb -h 127.0.0.1 -p 5433 -U augur_bench bench_seed
 *     BENCH_PG=postgres://augur_bench@127.0.0.1:5433/bench_seed BENCH_SEED_ONLY=1 … (seed once)
 *     createdb -h 127.0.0.1 -p 5433 -U augur_bench -T bench_seed bench_run   (a copy per run)
 *     BENCH_PG=postgres://augur_bench@127.0.0.1:5433/bench_run … ; dropdb … bench_run
 *     pg_ctl -D <dir>/data -m fast stop
 *   The peak RSS printed is this process's (the engine's), not the PostgreSQL server's.
 * - BENCH_BASELINES=none skips the cold read-and-score baselines (and the seal check) after the
 *   cycles: at 100,000 agents each is a full read of the season.
 */
import { createHash } from "node:crypto";
import { Session } from "node:inspector/promises";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { seal } from "@augur/scorer";
import { openStore, type Store } from "../../src/store/open";
import type { StoreLocation } from "../../src/store/location";
import { AugurScorer } from "../../src/cycle/augur-scorer";
import {
  appendBenchHour,
  benchSnapshot,
  BENCH_SEASON,
  recordsPerAgent,
  benchScoreSeals,
  seedBenchSeason,
  type BenchSeasonShape,
} from "./bench-season";
import { seedBenchSeasonPg } from "./bench-season-pg";
import { agentInputs, loadSeasonHeader } from "../../src/cycle/inputs";
import { SeasonRowCache, SeasonRows } from "../../src/store/season-rows";
import { IncrementalAugurScorer } from "../../src/cycle/incremental-scorer";
import type { Scorer } from "../../src/cycle/seams";
import { runCycle } from "../../src/cycle/run";
import { anchorStep, riskStep, scoreStep } from "../../src/cycle/steps";
import { FakeKeeper } from "./testing";
import { RISK_FORMULAS } from "../../src/cycle/formulas";
import { RiskCadence } from "../../src/risk/cadence";
import { appendEngineRecords, type EngineRecord } from "../../src/store/append";
import { RiskFolds } from "../../src/risk/folds";
import { riskRowsAt } from "../../src/store/queries/risk";

const AGENTS = Number(process.env.BENCH_AGENTS ?? 10_000);
const HOURS = Number(process.env.BENCH_HOURS ?? 720);
const HOUR = 3600;
/** Only every BENCH_ACTIVE_EVERY-th agent sends the ingested hours' snapshot (default all): the rest change nothing. */
const ACTIVE_EVERY = Number(process.env.BENCH_ACTIVE_EVERY ?? 1);
/** BENCH_RISK_STORAGE=every-hour: the risk step reads every vault and stores every reading every hour (the reference). */
const RISK_STORAGE = process.env.BENCH_RISK_STORAGE === "every-hour" ? "every-hour" : undefined;
const START = 1_800_000_000 - (1_800_000_000 % HOUR);
const PG_URL = process.env.BENCH_PG;
const BASELINES = process.env.BENCH_BASELINES !== "none";

/** Wall and CPU (user + system) time of each run: on a shared machine the CPU time is the fair figure. */
class Timer {
  wallMs = 0;
  cpuMs = 0;
  async run<T>(fn: () => Promise<T> | T): Promise<T> {
    const wall = performance.now();
    const cpu = process.cpuUsage();
    try {
      return await fn();
    } finally {
      const used = process.cpuUsage(cpu);
      this.cpuMs += (used.user + used.system) / 1000;
      this.wallMs += performance.now() - wall;
    }
  }
  toString(): string {
    return `cpu ${s(this.cpuMs)} (wall ${s(this.wallMs)})`;
  }
}
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
const gc = (globalThis as { gc?: () => void }).gc;

/** Resets the kernel's peak-RSS mark to the current RSS (Linux), so the next peak is one step's own. */
function resetPeakRss(): void {
  try {
    writeFileSync("/proc/self/clear_refs", "5");
  } catch {
    // Not Linux (or not allowed): the peak stays the process's.
  }
}
const peakRss = () => process.resourceUsage().maxRSS * 1024;

/**
 * The floor, and the reference outputs: every input row below `size` read and decoded into a
 * fresh `SeasonRows` (what a first cycle reads), then scored in memory by the scorer alone.
 */
async function coldScores(store: Store, asOf: number, size: number) {
  const read = new Timer();
  const score = new Timer();
  const rows = new SeasonRows(BENCH_SEASON);
  const got = await read.run(() => rows.extendTo(store, size));
  const header = await read.run(() => loadSeasonHeader(store.db, BENCH_SEASON, asOf, size));
  const outcomes = await score.run(() => {
    const scoring = new AugurScorer().openSeason(header);
    for (const agent of agentInputs(header, rows)) scoring.scoreAgent(agent);
    return scoring.finish();
  });
  const seals = new Map(outcomes.map((o) => [o.agentId, seal(o.manifest)]));
  return { read, score, rows: got.read, ranked: outcomes.filter((o) => o.score !== null).length, seals };
}

/** Whether the stored score rows at `asOf` carry exactly the cold run's seals; and both seal digests. */
async function checkOutputs(store: Store, asOf: number, cold: Map<string, string>) {
  const scores = await benchScoreSeals(store, asOf);
  // The rows served at the hour (stored on change: each vault's latest at or before it).
  const risk = (await riskRowsAt(store.db, BENCH_SEASON, asOf)).rows;
  const same = scores.length === cold.size && scores.every((r) => cold.get(r.agent_id) === r.seal);
  const digest = (seals: string[]) => createHash("sha256").update(seals.join(",")).digest("hex").slice(0, 16);
  return { same, scores: digest(scores.map((r) => r.seal)), risk: digest(risk.map((r) => r.seal)) };
}

/** One timed cycle, with the time up to each of its progress lines (head → keeper → scores → risk). */
async function timedCycle(
  store: Store,
  keeper: FakeKeeper,
  now: number,
  scorer: Scorer,
  rows: SeasonRowCache,
  folds: RiskFolds,
  cadence: RiskCadence,
) {
  const timer = new Timer();
  const phases: string[] = [];
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  const report = await timer.run(() =>
    runCycle({
      store,
      steps: [anchorStep(keeper), scoreStep(scorer), riskStep(RISK_FORMULAS, folds, RISK_STORAGE ?? cadence)],
      now: () => now,
      rows,
      progress: (line) => {
        marks.push({ line: line.split(":")[0]!, us: Number(process.hrtime.bigint() / 1000n) });
        const at = performance.now();
        const cpu = process.cpuUsage(lastCpu);
        const rss = `rss ${mb(process.memoryUsage().rss)}, peak ${mb(peakRss())}`;
        phases.push(
          `${s(at - last)} (cpu ${s((cpu.user + cpu.system) / 1000)}; ${rss}) → ${line.split(":")[0]}`,
        );
        last = at;
        lastCpu = process.cpuUsage();
      },
    }),
  );
  return { timer, report, phases };
}

/** One more hour of snapshots: every agent's, or every ACTIVE_EVERY-th agent's. */
async function ingestHour(store: Store, shape: BenchSeasonShape, hour: number): Promise<number> {
  if (ACTIVE_EVERY === 1) return appendBenchHour(store, shape, hour);
  const records: EngineRecord[] = [];
  for (let a = 0; a < shape.agents; a += ACTIVE_EVERY) records.push(benchSnapshot(shape, a, hour));
  return store.db
    .transaction()
    .execute(async (trx) => (await appendEngineRecords(trx, records, shape.start + hour * HOUR)).length);
}

/** Each progress line's time (µs, the profiler's clock), written into the profile beside its samples. */
const marks: { line: string; us: number }[] = [];

/** `fn` under the V8 CPU profiler, its profile written to `file` (no profiling when `file` is undefined). */
async function profiled<T>(file: string | undefined, fn: () => Promise<T>): Promise<T> {
  if (file === undefined) return fn();
  const session = new Session();
  session.connect();
  marks.length = 0;
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  try {
    return await fn();
  } finally {
    const { profile } = await session.post("Profiler.stop");
    writeFileSync(file, JSON.stringify({ ...profile, marks }));
    session.disconnect();
  }
}

/** Whether the PostgreSQL store holds no log yet (then it is seeded; else reused as it is). */
async function logIsEmpty(location: StoreLocation): Promise<boolean> {
  const store = await openStore(location);
  try {
    return (await store.log.size(store.db)) === 0;
  } finally {
    await store.close();
  }
}

/** Seeds the store (in a child process of its own: see main). */
async function seedOnly(shape: BenchSeasonShape) {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const records = PG_URL
    ? await seedBenchSeasonPg({ url: PG_URL }, shape, console.log)
    : await seedBenchSeason(process.env.BENCH_DB!, shape, console.log);
  const used = process.cpuUsage(cpu);
  console.log(
    `seeded ${records.toLocaleString("en")} records in ${s(performance.now() - wall)} ` +
      `(cpu ${s((used.user + used.system) / 1000)})`,
  );
}

/** The keeper of a new process: the heads anchored so far, so it anchors the next one after them. */
async function resumedKeeper(store: Store): Promise<FakeKeeper> {
  const keeper = new FakeKeeper();
  const anchors = await store.db
    .selectFrom("anchors")
    .select(["tree_size", "root"])
    .orderBy("anchor_index")
    .execute();
  for (const a of anchors)
    keeper.posted.push({ treeSize: Number(a.tree_size), root: a.root as `0x${string}` });
  return keeper;
}

/**
 * One cycle at `BENCH_RESTART_AT` in a process of its own (see main): a restart's peak RSS is its
 * own only in a new process, since freed memory is not handed back.
 */
async function restartOnly(file: string, at: number) {
  const store = await openStore({ kind: "sqlite", file });
  try {
    const [scorer, rows, folds] = [new IncrementalAugurScorer(), new SeasonRowCache(store), new RiskFolds()];
    gc?.();
    const before = process.memoryUsage().rss;
    resetPeakRss();
    const { timer, report, phases } = await timedCycle(
      store,
      await resumedKeeper(store),
      at + 60,
      scorer,
      rows,
      folds,
      new RiskCadence(),
    );
    console.log(
      `first cycle after a restart, in a new process: ${timer}; ${report.scoreRows} score rows, ` +
        `${report.riskRows} risk rows; RSS ${mb(before)} before, peak ${mb(peakRss())}; agents advanced ` +
        `${scorer.counts.advanced}, rebuilt ${scorer.counts.rebuilt}, from scratch ${scorer.counts.fromScratch}; ` +
        `risk folds advanced ${folds.counts.advanced}, rebuilt ${folds.counts.rebuilt}, from scratch ${folds.counts.fromScratch}`,
    );
    for (const phase of phases) console.log(`    ${phase}`);
  } finally {
    await store.close();
  }
}

async function main() {
  const shape = { agents: AGENTS, hours: HOURS, start: START };
  if (process.env.BENCH_SEED_ONLY) return seedOnly(shape);
  if (process.env.BENCH_RESTART_AT)
    return restartOnly(process.env.BENCH_DB!, Number(process.env.BENCH_RESTART_AT));
  const counts = recordsPerAgent(HOURS);
  console.log(
    `cycle: ${AGENTS.toLocaleString("en")} agents × ${HOURS} h (per agent ${counts.snapshots} snapshots, ` +
      `${counts.decisions} decisions, ${counts.trades} trades, ${counts.calls} calls); node ${process.version}; ` +
      `snapshots ingested from every ${ACTIVE_EVERY === 1 ? "" : `${ACTIVE_EVERY}th `}agent; risk storage ${RISK_STORAGE ?? "on change"}; ` +
      `load ${load()}`,
  );
  const dir = mkdtempSync(join(tmpdir(), "augur-cycle-bench-"));
  const file = process.env.BENCH_DB ?? join(dir, "augur.sqlite");
  const location: StoreLocation = PG_URL ? { kind: "postgres", url: PG_URL } : { kind: "sqlite", file };
  if (PG_URL ? await logIsEmpty(location) : !existsSync(file)) {
    // Seeding runs in a child process: its page cache and garbage would otherwise stay in this
    // process's RSS (freed memory is not handed back) and hide the cycles' own peak.
    const child = spawnSync(process.execPath, [...process.execArgv, __filename], {
      stdio: "inherit",
      env: { ...process.env, BENCH_DB: file, BENCH_SEED_ONLY: "1" },
    });
    if (child.status !== 0) throw new Error(`seeding ${file} failed (exit ${child.status})`);
  }
  const store = await openStore(location);
  console.log(`store: ${store.description}`);
  let failed = false;
  try {
    const keeper = new FakeKeeper();
    const asOf = START + HOURS * HOUR;
    // The cycles run first, so the process's peak RSS is theirs; the baselines follow.
    const cycles = [];
    // The incremental scorer (the cycle's default) and its process-wide row cache; a restart
    // gets a new scorer and an empty row cache, and reads the folds from score_states.
    let scorer = new IncrementalAugurScorer();
    let rows = new SeasonRowCache(store);
    let folds = new RiskFolds();
    let cadence = new RiskCadence();
    const runs = [
      ["first cycle of the season in this process (cold row cache, no folds yet)", asOf],
      ["next hour's cycle (steady state: one more hour of snapshots)", asOf + HOUR],
      ["the hour after (steady state again)", asOf + 2 * HOUR],
      ["first cycle after a restart (empty row cache, folds read from score_states)", asOf + 3 * HOUR],
    ] as const;
    for (const [label, hour] of runs) {
      if (hour > asOf) {
        const added = await ingestHour(store, shape, HOURS + (hour - asOf) / HOUR - 1);
        console.log(`ingested the next hour: ${added.toLocaleString("en")} snapshots (untimed)`);
      }
      if (label.startsWith("first cycle after a restart")) {
        scorer = new IncrementalAugurScorer();
        rows = new SeasonRowCache(store);
        folds = new RiskFolds();
        cadence = new RiskCadence();
      }
      // The cycle's keeper anchors the whole head first, so its scores read everything below it.
      const size = await store.log.size(store.db);
      gc?.();
      const before = process.memoryUsage().rss;
      resetPeakRss();
      const profileDir = process.env.BENCH_PROFILE;
      if (profileDir) mkdirSync(profileDir, { recursive: true });
      const cycle: Awaited<ReturnType<typeof timedCycle>> = await profiled(
        profileDir && join(profileDir, `cycle-${cycles.length + 1}.cpuprofile`),
        () => timedCycle(store, keeper, hour + 60, scorer, rows, folds, cadence),
      );
      const { timer, report, phases } = cycle;
      console.log(
        `${label}: ${timer}; ${report.scoreRows} score rows, ${report.riskRows} risk rows, ` +
          `head ${report.head.treeSize}; RSS ${mb(before)} before, peak ${mb(peakRss())}; ` +
          `agents advanced ${scorer.counts.advanced}, rebuilt ${scorer.counts.rebuilt}, from scratch ${scorer.counts.fromScratch}; ` +
          `risk folds advanced ${folds.counts.advanced}, rebuilt ${folds.counts.rebuilt}, from scratch ${folds.counts.fromScratch}; ` +
          `row cache holds ${rows.held.toLocaleString("en")} records after it; ` +
          `risk vaults read ${cadence.counts.read}, kept ${cadence.counts.kept}, stored ${cadence.counts.readings} readings, ${cadence.counts.rows} rows`,
      );
      for (const phase of phases) console.log(`    ${phase}`);
      cycles.push({ label, hour, size, timer });
    }
    if (PG_URL) console.log("the restart in a new process is run on SQLite only (BENCH_DB)");
    else {
      // One more hour, its cycle in a new process (the restart of a real deploy).
      const hour = asOf + 4 * HOUR;
      await appendBenchHour(store, shape, HOURS + 3);
      const size = await store.log.size(store.db);
      const child = spawnSync(process.execPath, [...process.execArgv, __filename], {
        stdio: "inherit",
        env: { ...process.env, BENCH_DB: file, BENCH_RESTART_AT: String(hour) },
      });
      if (child.status !== 0) throw new Error(`the restart in a new process failed (exit ${child.status})`);
      cycles.push({ label: "first cycle after a restart, in a new process", hour, size, timer: new Timer() });
    }
    // Backing stores of collected buffers are released after the collection: let that run first.
    gc?.();
    await new Promise((resolve) => setTimeout(resolve, 100));
    gc?.();
    const memory = process.memoryUsage();
    console.log(
      `held between cycles (the row cache ${rows.held.toLocaleString("en")} records, the folds): heap ` +
        `${mb(memory.heapUsed)}, array buffers ${mb(memory.arrayBuffers)}; peak RSS of the cycles ${mb(peakRss())}`,
    );
    if (!BASELINES) console.log("baselines skipped (BENCH_BASELINES=none): seals not checked");
    for (const { label, hour, size, timer } of BASELINES ? cycles : []) {
      gc?.();
      // Rows below a tree size never change, so this reads exactly what the cycle read.
      const base = await coldScores(store, hour, size);
      const check = await checkOutputs(store, hour, base.seals);
      failed ||= !check.same;
      console.log(`${label}, beside its baselines:`);
      console.log(
        `  baseline, read and decode every input afresh (${base.rows.toLocaleString("en")} records): ${base.read}`,
      );
      console.log(
        `  baseline, score them in memory (AugurScorer alone, ${base.ranked} ranked): ${base.score}`,
      );
      const seals = `score seals equal that cold read and score: ${check.same}; digests: scores ${check.scores}, risk ${check.risk}`;
      // The new process's cycle is timed there (above).
      console.log(
        timer.cpuMs === 0
          ? `  ${seals}`
          : `  cycle ${s(timer.cpuMs)} cpu = ${(timer.cpuMs / (base.read.cpuMs + base.score.cpuMs)).toFixed(2)}× ` +
              `cold read + score; ${seals}`,
      );
    }
    console.log(`target ≤ 60 s on one core; load at the end ${load()}`);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  if (failed) {
    console.error("cycle bench: stored score seals differ from a cold read and score");
    process.exit(1);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
