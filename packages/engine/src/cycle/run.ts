import { assertNotFinal } from "../modes/final";
import { currentMode } from "../modes/state";
import { isFinalMode } from "../modes/timeline";
import type { ModeStepReport } from "../modes/evaluate";
import type { Store } from "../store/open";
import { seasonRowCache, type SeasonRowCache } from "../store/season-rows";
import type { LogHead } from "../keeper/seam";
import type { SettleReport } from "../settler/settler";
import { CYCLE_SECONDS, STEP_ORDER, type CycleContext, type CycleStep, type StepReport } from "./steps/step";

export { CYCLE_SECONDS };

export interface CycleDeps {
  readonly store: Store;
  /**
   * What this cycle runs, in `STEP_ORDER` (see cycle/steps/): the anchor step always, the others
   * as configured, each at most once.
   */
  readonly steps: readonly CycleStep[];
  /**
   * The decoded input rows kept between cycles, so each hour reads only newly anchored records.
   * Default: one cache per open store, for the life of the process (`seasonRowCache`).
   */
  readonly rows?: SeasonRowCache;
  /** Unix seconds. */
  readonly now: () => number;
  readonly progress?: (line: string) => void;
}

export interface CycleReport {
  /** The cycle's hour: scores of this run are stored as of this time. */
  readonly asOf: number;
  readonly head: LogHead;
  /** The newest anchor after the keeper steps: what the steps read (undefined: nothing anchored yet). */
  readonly anchored: { readonly anchorIndex: number; readonly treeSize: number } | undefined;
  /**
   * The newest anchor at the end of the pass, after the head is anchored once more: it covers
   * everything this pass sealed, unless that anchor is still pending (no keeper: as `anchored`).
   */
  readonly sealedAnchored: { readonly anchorIndex: number; readonly treeSize: number } | undefined;
  /** Seasons scored now; seasons already scored at `asOf` are skipped. */
  readonly scoredSeasons: readonly string[];
  readonly scoreRows: number;
  /** Risk rows sealed now; a season with rows at `asOf` adds none. */
  readonly riskRows: number;
  /** Hourly closes sealed now; an (asset, hour) already cached adds none. */
  readonly closes: number;
  /** What the settler did (absent when the cycle runs no settler). */
  readonly settle?: SettleReport;
  /** Snapshots measured from the chain now (absent when the cycle does not measure). */
  readonly measured?: number;
  /** Referee boards sealed now; a season with a board at `asOf`, or an unchanged input, adds none. */
  readonly refereeBoards: number;
  /** Stewardship days (YYYY-MM-DD) sealed now; empty when none closed or no monitor. */
  readonly stewardshipDays: readonly string[];
  /** The mode after the mode step (absent when the cycle does not evaluate modes). */
  readonly mode?: ModeStepReport;
}

/** Refuses a step list out of `STEP_ORDER`, with a step twice, or without the anchor step. */
function checkOrder(steps: readonly CycleStep[]): void {
  const positions = steps.map((s) => STEP_ORDER.indexOf(s.name));
  const ordered = positions.every((p, i) => i === 0 || p > positions[i - 1]!);
  if (!ordered || !steps.some((s) => s.name === "anchor")) {
    throw new RangeError(
      `cycle steps must include "anchor" and follow ${STEP_ORDER.join(" → ")}; got ${steps.map((s) => s.name).join(", ")}`,
    );
  }
}

/**
 * One hourly cycle: its steps in order (cycle/steps/), each idempotent, so a second run in the
 * same hour adds no anchor it already has and no row it already wrote. With the mode step in the
 * list, a log that is winding down or archived runs only the steps that close it.
 */
export async function runCycle(deps: CycleDeps): Promise<CycleReport> {
  checkOrder(deps.steps);
  const { store } = deps;
  await assertNotFinal(store.db); // the final notice is the last sealed record
  const say = deps.progress ?? (() => undefined);
  const now = deps.now();
  const asOf = Math.floor(now / CYCLE_SECONDS) * CYCLE_SECONDS;
  const closing =
    deps.steps.some((s) => s.name === "modes") && isFinalMode((await currentMode(store.db)).mode);
  if (closing) say("mode: winding down or archived; nothing new is sealed or scored");
  const context: CycleContext = {
    store,
    asOf,
    now,
    say,
    rows: deps.rows ?? seasonRowCache(store),
    anchor: undefined,
  };
  let report: StepReport = {};
  for (const step of deps.steps) {
    if (closing && !step.runsWhenClosing) continue;
    report = { ...report, ...(await step.run(context)) };
  }
  // Between hours the row cache keeps only what the steps' folds still need.
  context.rows.settle();
  const { anchor } = context;
  // The steps after the anchor seal rows (scores, risk rows, boards, days) that read only what
  // the first anchor covers; anchoring the head once more makes them verifiable this very pass.
  const final = context.reanchor ? await context.reanchor() : anchor;
  const summary = (a: typeof anchor) =>
    a ? { anchorIndex: a.anchor_index, treeSize: a.tree_size } : undefined;
  return {
    asOf,
    head: report.head!, // the anchor step always runs
    anchored: summary(anchor),
    sealedAnchored: summary(final),
    scoredSeasons: report.scoredSeasons ?? [],
    scoreRows: report.scoreRows ?? 0,
    riskRows: report.riskRows ?? 0,
    closes: report.closes ?? 0,
    ...(report.measured !== undefined ? { measured: report.measured } : {}),
    refereeBoards: report.refereeBoards ?? 0,
    stewardshipDays: report.stewardshipDays ?? [],
    ...(report.settle ? { settle: report.settle } : {}),
    ...(report.mode ? { mode: report.mode } : {}),
  };
}
