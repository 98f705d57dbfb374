/**
 * The cycle bench's restart in a new process (`cycle.bench.ts`, BENCH_RESTART_AT): one cycle at
 * that hour over the SQLite store BENCH_DB, with a new scorer, an empty row cache and new risk
 * folds (the folds are read from the store), and a keeper that knows the heads anchored so far.
 * A restart's peak RSS is its own only in a new process, since freed memory is not handed back.
 * With BENCH_PROFILE=<dir>, its V8 profile is `cycle-5.cpuprofile` there.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { openStore, type Store } from "../../src/store/open";
import { SeasonRowCache } from "../../src/store/season-rows";
import { IncrementalAugurScorer } from "../../src/cycle/incremental-scorer";
import { RiskCadence } from "../../src/risk/cadence";
import { RiskFolds } from "../../src/risk/folds";
import { gc, mb, peakRss, resetPeakRss, timedCycle } from "./cycle-timing";
import { FakeKeeper } from "./testing";
import { printProfile, profiled } from "../profile";

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

/** The restart's cycle at `at` (run in the new process), its figures printed. */
export async function restartOnly(file: string, at: number) {
  const store = await openStore({ kind: "sqlite", file });
  try {
    const [scorer, rows, folds] = [new IncrementalAugurScorer(), new SeasonRowCache(store), new RiskFolds()];
    gc?.();
    const before = process.memoryUsage().rss;
    resetPeakRss();
    const keeper = await resumedKeeper(store);
    const dir = process.env.BENCH_PROFILE;
    const profile = dir && join(dir, "cycle-5.cpuprofile");
    const { timer, report, phases } = await profiled(profile, () =>
      timedCycle(store, keeper, at + 60, scorer, rows, folds, new RiskCadence()),
    );
    console.log(
      `first cycle after a restart, in a new process: ${timer}; ${report.scoreRows} score rows, ` +
        `${report.riskRows} risk rows; RSS ${mb(before)} before, peak ${mb(peakRss())}; agents advanced ` +
        `${scorer.counts.advanced}, rebuilt ${scorer.counts.rebuilt}, from scratch ${scorer.counts.fromScratch}; ` +
        `risk folds advanced ${folds.counts.advanced}, rebuilt ${folds.counts.rebuilt}, from scratch ${folds.counts.fromScratch}`,
    );
    for (const phase of phases) console.log(`    ${phase}`);
    if (profile) printProfile(profile, Number(process.env.BENCH_PROFILE_TOP ?? 8));
  } finally {
    await store.close();
  }
}

/** Runs `bench` (the bench's own file) again in a new process with BENCH_RESTART_AT=`at` on `file`. */
export function restartInNewProcess(bench: string, file: string, at: number): void {
  const child = spawnSync(process.execPath, [...process.execArgv, bench], {
    stdio: "inherit",
    env: { ...process.env, BENCH_DB: file, BENCH_RESTART_AT: String(at) },
  });
  if (child.status !== 0) throw new Error(`the restart in a new process failed (exit ${child.status})`);
}
