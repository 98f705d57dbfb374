import type { ModeStepReport } from "../../modes/evaluate";
import type { Store } from "../../store/open";
import type { Anchor } from "../../store/queries/anchors";
import { seasonClosesAt, seasonsStartedBy, type Season } from "../../store/queries/seasons";
import type { SeasonRowCache } from "../../store/season-rows";
import type { LogHead } from "../../keeper/seam";
import type { SettleReport } from "../../settler/settler";

export const CYCLE_SECONDS = 3600;

/**
 * Every step a cycle can run, in the order it runs them. Closes and measured snapshots come first
 * so their seals join the head anchored this very cycle; the settler resolves due calls after the
 * anchor's transaction and before scoring; the steps after the anchor read only what it covers,
 * and what they seal is anchored once more at the end of the same pass (`runCycle`), so a score is
 * verifiable the hour it is written;
 * stewardship days come before the mode step, so a day that closed this hour can change the mode
 * this hour.
 */
export const STEP_ORDER = [
  "closes",
  "measure",
  "anchor",
  "settle",
  "score",
  "risk",
  "referee",
  "stewardship",
  "modes",
] as const;
export type StepName = (typeof STEP_ORDER)[number];

/** What a step reads: the store, the cycle's hour and clock, and what earlier steps found. */
export interface CycleContext {
  readonly store: Store;
  /** The cycle's hour, unix seconds: what it seals is as of this time. */
  readonly asOf: number;
  /** Unix seconds. */
  readonly now: number;
  readonly say: (line: string) => void;
  /** The decoded input rows kept between cycles (scores and risk rows read them). */
  readonly rows: SeasonRowCache;
  /** The newest stored anchor: set by the anchor step, refreshed by the mode step. */
  anchor: Anchor | undefined;
  /** Anchors the log's head as it is now (set by the anchor step when a keeper is configured). */
  reanchor?: () => Promise<Anchor | undefined>;
}

/** What a step adds to the cycle's report. */
export interface StepReport {
  readonly head?: LogHead;
  readonly closes?: number;
  readonly settle?: SettleReport;
  readonly measured?: number;
  readonly scoredSeasons?: readonly string[];
  readonly scoreRows?: number;
  readonly riskRows?: number;
  readonly refereeBoards?: number;
  readonly stewardshipDays?: readonly string[];
  readonly mode?: ModeStepReport;
}

/** One step of the hourly cycle; every step is idempotent within an hour. */
export interface CycleStep {
  readonly name: StepName;
  /** True for the steps that still run once the log is closing (winding down or archived). */
  readonly runsWhenClosing: boolean;
  run(context: CycleContext): Promise<StepReport>;
}

/** The seasons started by `asOf` whose close was less than `tailSeconds` ago: the ones a step still serves. */
export async function seasonsInTurn(store: Store, asOf: number, tailSeconds: number): Promise<Season[]> {
  const seasons = await seasonsStartedBy(store.db, asOf);
  return seasons.filter((season) => asOf <= seasonClosesAt(season) + tailSeconds);
}
