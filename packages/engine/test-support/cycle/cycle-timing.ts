/**
 * Timing of the cycle bench (`cycle.bench.ts`) and its restart in a new process
 * (`bench-restart.ts`): CPU and wall time, peak RSS per step, and one cycle timed up to each of
 * its progress lines (which are also the profile's marks, `../profile.ts`).
 */
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import type { Store } from "../../src/store/open";
import type { SeasonRowCache } from "../../src/store/season-rows";
import type { Scorer } from "../../src/cycle/seams";
import { runCycle } from "../../src/cycle/run";
import { anchorStep, riskStep, scoreStep } from "../../src/cycle/steps";
import { RISK_FORMULAS } from "../../src/cycle/formulas";
import type { RiskStorage } from "../../src/risk/seal";
import type { RiskFolds } from "../../src/risk/folds";
import { markProfile } from "../profile";
import type { FakeKeeper } from "./testing";

/** Wall and CPU (user + system) time of each run: on a shared machine the CPU time is the fair figure. */
export class Timer {
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
export const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
export const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
export const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
export const gc = (globalThis as { gc?: () => void }).gc;

/** Resets the kernel's peak-RSS mark to the current RSS (Linux), so the next peak is one step's own. */
export function resetPeakRss(): void {
  try {
    writeFileSync("/proc/self/clear_refs", "5");
  } catch {
    // Not Linux (or not allowed): the peak stays the process's.
  }
}
export const peakRss = () => process.resourceUsage().maxRSS * 1024;

/** BENCH_RISK_STORAGE=every-hour: the risk step reads every vault and stores every reading every hour (the reference); else on change, remembered by `cadence`. */
export const benchRiskStorage = (cadence: RiskStorage): RiskStorage =>
  process.env.BENCH_RISK_STORAGE === "every-hour" ? "every-hour" : cadence;

/** One timed cycle, with the time up to each of its progress lines (head → keeper → scores → risk). */
export async function timedCycle(
  store: Store,
  keeper: FakeKeeper,
  now: number,
  scorer: Scorer,
  rows: SeasonRowCache,
  folds: RiskFolds,
  cadence: RiskStorage,
) {
  const timer = new Timer();
  const phases: string[] = [];
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  const report = await timer.run(() =>
    runCycle({
      store,
      steps: [
        anchorStep(keeper),
        scoreStep(scorer),
        riskStep(RISK_FORMULAS, folds, benchRiskStorage(cadence)),
      ],
      now: () => now,
      rows,
      progress: (line) => {
        markProfile(line.split(":")[0]!);
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
