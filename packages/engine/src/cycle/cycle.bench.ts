/**
 * `npm run bench -- cycle` (or `npx tsx --expose-gc packages/engine/src/cycle/cycle.bench.ts`):
 * one full hourly cycle — `runCycle` with a keeper that anchors at once, the augur-score/v1
 * scorer and the risk rows — over BENCH_AGENTS agents (default 10,000) with BENCH_HOURS hours of
 * hourly records each (default 24; the score bench's 720 would take the seeding about an hour),
 * in a temporary SQLite file, in this one process (JavaScript and SQLite share one core).
 *
 * Printed beside it, measured in the same run over the same rows: the floor of reading them
 * (the cycle's own reader, `streamAgentInputs`, with nothing done to the rows) and the scorer
 * alone on those inputs in memory. Two cycles are timed: the season's first (no earlier scores)
 * and the next hour's (the first cycle's anchored scores feed the creator term), which is the
 * steady state. BENCH_DB=<file> seeds that file once and reuses it (cycles then add their rows to
 * it: delete it to measure from scratch). No timed assertions.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { MerkleLogStore } from "../store/merkle/log-store";
import { openStore, type Store } from "../store/open";
import { AugurScorer } from "./augur-scorer";
import { BENCH_SEASON, recordsPerAgent, seedBenchSeason } from "./bench-season";
import { loadSeasonHeader, streamAgentInputs } from "./inputs";
import { runCycle } from "./run";
import { FakeKeeper } from "./testing";

const AGENTS = Number(process.env.BENCH_AGENTS ?? 10_000);
const HOURS = Number(process.env.BENCH_HOURS ?? 24);
const HOUR = 3600;
const START = 1_800_000_000 - (1_800_000_000 % HOUR);

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

/** The baselines: reading every input row the cycle reads, then scoring them in memory alone. */
async function baselines(store: Store, asOf: number) {
  const log = new MerkleLogStore();
  const size = await log.size(store.db);
  const read = new Timer();
  const score = new Timer();
  let rows = 0;
  const header = await read.run(() => loadSeasonHeader(store.db, BENCH_SEASON, asOf, size));
  const scoring = new AugurScorer().openSeason(header);
  const stream = streamAgentInputs(store.db, header, size);
  for (;;) {
    const next = await read.run(() => stream.next());
    if (next.done) break;
    rows += next.value.records.length;
    await score.run(() => scoring.scoreAgent(next.value));
  }
  const outcomes = await score.run(() => scoring.finish());
  return { read, score, rows, ranked: outcomes.filter((o) => o.score !== null).length };
}

/** One timed cycle, with the time up to each of its progress lines (head → keeper → scores → risk). */
async function timedCycle(store: Store, keeper: FakeKeeper, now: number) {
  const timer = new Timer();
  const phases: string[] = [];
  let last = performance.now();
  const report = await timer.run(() =>
    runCycle({
      store,
      keeper,
      scorer: new AugurScorer(),
      risk: true,
      now: () => now,
      progress: (line) => {
        const at = performance.now();
        phases.push(`${s(at - last)} → ${line.split(":")[0]}`);
        last = at;
      },
    }),
  );
  return { timer, report, phases };
}

async function main() {
  const counts = recordsPerAgent(HOURS);
  console.log(
    `cycle: ${AGENTS.toLocaleString("en")} agents × ${HOURS} h (per agent ${counts.snapshots} snapshots, ` +
      `${counts.decisions} decisions, ${counts.trades} trades, ${counts.calls} calls); node ${process.version}; ` +
      `load ${load()}`,
  );
  const dir = mkdtempSync(join(tmpdir(), "augur-cycle-bench-"));
  const reuse = process.env.BENCH_DB;
  const file = reuse ?? join(dir, "augur.sqlite");
  if (!existsSync(file)) {
    const t0 = performance.now();
    const records = await seedBenchSeason(file, { agents: AGENTS, hours: HOURS, start: START }, console.log);
    console.log(`seeded ${records.toLocaleString("en")} records in ${s(performance.now() - t0)}`);
  }
  const store = await openStore({ kind: "sqlite", file });
  try {
    const asOf = START + HOURS * HOUR;
    gc?.();
    const base = await baselines(store, asOf);
    console.log(
      `baseline, read the inputs (streamAgentInputs, ${base.rows.toLocaleString("en")} rows): ${base.read}`,
    );
    console.log(`baseline, score them in memory (AugurScorer alone, ${base.ranked} ranked): ${base.score}`);
    const floor = base.read.cpuMs + base.score.cpuMs;

    const keeper = new FakeKeeper();
    for (const [label, now] of [
      ["first cycle of the season", asOf + 60],
      ["next hour's cycle (steady state)", asOf + HOUR + 60],
    ] as const) {
      gc?.();
      const { timer, report, phases } = await timedCycle(store, keeper, now);
      console.log(
        `${label}: ${timer} = ${(timer.cpuMs / floor).toFixed(2)}× read + score (cpu); ` +
          `${report.scoreRows} score rows, ${report.riskRows} risk rows, head ${report.head.treeSize}`,
      );
      for (const phase of phases) console.log(`    ${phase}`);
    }
    console.log(
      `peak RSS ${mb(process.resourceUsage().maxRSS * 1024)}; target ≤ 60 s on one core; load at the end ${load()}`,
    );
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
