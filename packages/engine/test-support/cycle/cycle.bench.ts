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
 * writes a V8 CPU profile of each timed cycle there (`cycle-<n>.cpuprofile`, n = 1..5), so one
 * steady hour is profiled without the seeding or the baselines around it, and prints the top
 * functions by self time of each of its steps (BENCH_PROFILE_TOP=n of them, default 8; `../profile.ts`).
 *
 * Re-running at scale (docs/benchmarks.md, #22 "current code at the issue's scale" and "Session 9"):
 * - BENCH_DB=<file>: seed once into a pristine file, then copy it before each run (cycles add rows):
 *   `BENCH_SEED_ONLY=1 BENCH_DB=seed.sqlite nice -n 10 npx tsx --expose-gc <this file>`, then
 *   `cp seed.sqlite run.sqlite && BENCH_DB=run.sqlite npx tsx --expose-gc <this file>`.
 *   A seed stopped part way (or a smaller seed of the same hours) is continued by the same seeding
 *   command with the larger BENCH_AGENTS: it ends up row for row what a whole seed writes.
 * - BENCH_PG=<postgres URL>: the store is that PostgreSQL database, seeded when its log is empty
 *   (`bench-store.ts` says how to run a throw-away cluster for it).
 * - BENCH_RESTART_AT=<unix s> (set by this bench for its last cycle): one cycle at that hour in this
 *   process over BENCH_DB, as after a restart (`bench-restart.ts`).
 * - `run-seeded.sh <agents> <hours> <pristine> <run dir> [VAR=value …]` copies a pristine seed and
 *   runs this bench on the copy without the baselines, then deletes the copy.
 * - BENCH_BASELINES=none skips the cold read-and-score baselines (and the seal check) after the
 *   cycles: at 100,000 agents each is a full read of the season.
 */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { seal } from "@augur/scorer";
import { openStore, type Store } from "../../src/store/open";
import { AugurScorer } from "../../src/cycle/augur-scorer";
import {
  appendBenchHour,
  benchSnapshot,
  BENCH_SEASON,
  recordsPerAgent,
  benchScoreSeals,
  type BenchSeasonShape,
} from "./bench-season";
import { agentInputs, loadSeasonHeader } from "../../src/cycle/inputs";
import { SeasonRowCache, SeasonRows } from "../../src/store/season-rows";
import { IncrementalAugurScorer } from "../../src/cycle/incremental-scorer";
import { FakeKeeper } from "./testing";
import { RiskCadence } from "../../src/risk/cadence";
import { appendEngineRecords, type EngineRecord } from "../../src/store/append";
import { RiskFolds } from "../../src/risk/folds";
import { riskRowsAt } from "../../src/store/queries/risk";
import { printProfile, profiled } from "../profile";
import { gc, load, mb, peakRss, resetPeakRss, s, timedCycle, Timer } from "./cycle-timing";
import { benchStore, seedOnly } from "./bench-store";
import { restartInNewProcess, restartOnly } from "./bench-restart";

const AGENTS = Number(process.env.BENCH_AGENTS ?? 10_000);
const HOURS = Number(process.env.BENCH_HOURS ?? 720);
const HOUR = 3600;
/** Only every BENCH_ACTIVE_EVERY-th agent sends the ingested hours' snapshot (default all): the rest change nothing. */
const ACTIVE_EVERY = Number(process.env.BENCH_ACTIVE_EVERY ?? 1);
/** BENCH_RISK_STORAGE=every-hour: the risk step reads every vault and stores every reading every hour (the reference). */
const RISK_STORAGE = process.env.BENCH_RISK_STORAGE === "every-hour" ? "every-hour" : undefined;
const START = 1_800_000_000 - (1_800_000_000 % HOUR);
const PG_URL = process.env.BENCH_PG;
const PROFILE_TOP = Number(process.env.BENCH_PROFILE_TOP ?? 8);
const BASELINES = process.env.BENCH_BASELINES !== "none";
/** BENCH_STEADY_ONLY=1: the first cycle and the two steady hours only, no restarts (a quicker run at large scales). */
const STEADY_ONLY = process.env.BENCH_STEADY_ONLY === "1";

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

/** One more hour of snapshots: every agent's, or every ACTIVE_EVERY-th agent's. */
async function ingestHour(store: Store, shape: BenchSeasonShape, hour: number): Promise<number> {
  if (ACTIVE_EVERY === 1) return appendBenchHour(store, shape, hour);
  const records: EngineRecord[] = [];
  for (let a = 0; a < shape.agents; a += ACTIVE_EVERY) records.push(benchSnapshot(shape, a, hour));
  return store.db
    .transaction()
    .execute(async (trx) => (await appendEngineRecords(trx, records, shape.start + hour * HOUR)).length);
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
  const location = await benchStore(__filename, file);
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
    const all = [
      ["first cycle of the season in this process (cold row cache, no folds yet)", asOf],
      ["next hour's cycle (steady state: one more hour of snapshots)", asOf + HOUR],
      ["the hour after (steady state again)", asOf + 2 * HOUR],
      ["first cycle after a restart (empty row cache, folds read from score_states)", asOf + 3 * HOUR],
    ] as const;
    const runs = STEADY_ONLY ? all.slice(0, 3) : all;
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
      const profile = profileDir && join(profileDir, `cycle-${cycles.length + 1}.cpuprofile`);
      const cycle: Awaited<ReturnType<typeof timedCycle>> = await profiled(profile, () =>
        timedCycle(store, keeper, hour + 60, scorer, rows, folds, cadence),
      );
      const { timer, report, phases } = cycle;
      console.log(
        `${label}: ${timer}; ${report.scoreRows} score rows, ${report.riskRows} risk rows, ` +
          `head ${report.head.treeSize}; RSS ${mb(before)} before, peak ${mb(peakRss())}; ` +
          `agents advanced ${scorer.counts.advanced}, rebuilt ${scorer.counts.rebuilt}, from scratch ${scorer.counts.fromScratch}; ` +
          `risk folds advanced ${folds.counts.advanced}, rebuilt ${folds.counts.rebuilt}, from scratch ${folds.counts.fromScratch}; ` +
          `row cache holds ${rows.held.toLocaleString("en")} records after it; ` +
          `risk vaults read ${cadence.counts.read}, kept ${cadence.counts.kept}, stored ${cadence.counts.readings} readings, ${cadence.counts.rows} rows, ${cadence.counts.capital} capital`,
      );
      for (const phase of phases) console.log(`    ${phase}`);
      if (profile) printProfile(profile, PROFILE_TOP);
      cycles.push({ label, hour, size, timer });
    }
    if (STEADY_ONLY) console.log("restarts skipped (BENCH_STEADY_ONLY=1)");
    else if (PG_URL) console.log("the restart in a new process is run on SQLite only (BENCH_DB)");
    else {
      // One more hour, its cycle in a new process (the restart of a real deploy).
      const hour = asOf + 4 * HOUR;
      await appendBenchHour(store, shape, HOURS + 3);
      const size = await store.log.size(store.db);
      restartInNewProcess(__filename, file, hour);
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
