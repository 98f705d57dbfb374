import { canonicalJson, type Hex32 } from "@augur/scorer";
import { receiptOf } from "../keeper/anchor-head";
import type { Store } from "../store/open";
import { latestAnchor, type Anchor } from "../store/queries/anchors";
import { appendModeRecord } from "../store/queries/modes";
import { listStewardshipDays } from "../store/queries/stewardship";
import { dayOf } from "./days";
import { MODE_FORMAT, type ModeBody } from "./records";
import { currentMode, modeHistory, operatorNotices, type ModeState } from "./state";
import { describeBurn, type UnvestedBurn, type UnvestedBurner } from "./vesting";
import { modeTimeline, type FinalAnchor, type ModeTransition, type StewardshipDay } from "./timeline";

/**
 * Where the cycle reads the sealed daily stewardship records from, oldest first. By default the
 * store's own `stewardship_days` (sealed by the cycle's stewardship step); with no monitor
 * configured that table is empty and only operator notices change the mode.
 */
export type StewardshipDaysSource = () => Promise<readonly StewardshipDay[]>;

export interface ModeStepDeps {
  readonly store: Store;
  readonly days?: StewardshipDaysSource;
  /** Unix seconds: the cycle's clock; its UTC date is "today". */
  readonly now: number;
  /**
   * Anchors the log's current head if a keeper is configured (the cycle's own keeper step);
   * resolves to the newest stored anchor afterwards. Absent: no keeper, nothing can be archived.
   */
  readonly anchorHead?: () => Promise<Anchor | undefined>;
  readonly say: (line: string) => void;
  /** With an operator allocation configured: the wind-down burns its unvested part before archiving. */
  readonly burner?: UnvestedBurner;
}

export interface ModeStepReport {
  readonly mode: ModeState["mode"];
  readonly since: string | null;
  /** Mode records written by this step (0 on a rerun: only changes are written). */
  readonly written: number;
  /** In wind-down with an allocation configured: what the burn of its unvested part did. */
  readonly burn?: UnvestedBurn;
}

/** What makes two transitions the same change, whenever they were declared. */
const changeKey = (t: Pick<ModeBody, "mode" | "since" | "cause">) =>
  canonicalJson({ mode: t.mode, since: t.since, cause: t.cause });

/**
 * Appends the transitions of `timeline` the store does not hold yet, after the last one it
 * holds, each chained to the previous mode record; under the log's writer lock, so a
 * concurrent cycle appends nothing twice.
 */
async function recordChanges(
  store: Store,
  timeline: readonly ModeTransition[],
  now: number,
): Promise<number> {
  return store.db.transaction().execute(async (trx) => {
    await store.log.lockForAppend(trx);
    const history = await modeHistory(trx);
    const stored = new Set(history.map(changeKey));
    let from = 0;
    timeline.forEach((t, i) => {
      if (stored.has(changeKey(t))) from = i + 1;
    });
    let previous: Hex32 | null = history[history.length - 1]?.seal ?? null;
    let written = 0;
    for (const t of timeline.slice(from)) {
      const body: ModeBody = {
        format: MODE_FORMAT,
        mode: t.mode,
        since: t.since,
        declared: dayOf(now),
        cause: t.cause,
        previous,
      };
      const result = await appendModeRecord(trx, { kind: "mode", day: t.since, body }, now);
      previous = result.seal;
      written += 1;
    }
    return written;
  });
}

/**
 * The stored anchor as the records name it (its receipt, `receiptOf`, less the block hash and
 * time): the final anchor of the archive.
 */
export function finalAnchorOf(anchor: Anchor, day: string): FinalAnchor {
  const { anchorIndex, treeSize, root, chainId, registry, txHash, blockNumber } = receiptOf(anchor);
  return { day, anchorIndex, treeSize, root, chainId, registry, txHash, blockNumber };
}

/**
 * The cycle's mode step: decide the timeline up to today from the stewardship days and the
 * operator notices, write each change not yet written (a rerun writes nothing), and, in
 * wind-down, finish: anchor whatever the log holds, record `archived` naming that final anchor,
 * then anchor once more so the archived record itself is anchored. Archived is final: the step
 * then does nothing.
 */
export async function evaluateMode(deps: ModeStepDeps): Promise<ModeStepReport> {
  const { store, now, say } = deps;
  const db = store.db;
  const today = dayOf(now);
  const before = await currentMode(db);
  if (before.mode === "archived") {
    say(`mode: archived since ${before.since} (final)`);
    return { mode: before.mode, since: before.since, written: 0 };
  }
  const input = {
    days: deps.days ? await deps.days() : await listStewardshipDays(deps.store.db),
    notices: await operatorNotices(db),
    through: today,
  };
  let written = await recordChanges(store, modeTimeline(input), now);
  let state = await currentMode(db);
  // "Any unvested operator allocation is burned": before the archive, so the final receipt
  // (whose blocks end at the archive) shows the burn; the archive waits until it is mined.
  const burn = state.mode === "wind-down" && deps.burner ? await deps.burner.burn() : undefined;
  if (burn) say(`mode: wind-down; ${describeBurn(burn, deps.burner!.allocation)}`);
  if (state.mode === "wind-down" && burn?.status !== "pending") {
    let anchor = await latestAnchor(db);
    const size = await store.log.size(db);
    if ((!anchor || anchor.tree_size < size) && deps.anchorHead) anchor = await deps.anchorHead();
    if (anchor && anchor.tree_size === size) {
      written += await recordChanges(
        store,
        modeTimeline({ ...input, finalAnchor: finalAnchorOf(anchor, today) }),
        now,
      );
      state = await currentMode(db);
      // The archived record is the log's last leaf: anchor it too, so every record has a proof.
      if (deps.anchorHead) await deps.anchorHead();
    } else {
      say(
        deps.anchorHead
          ? "mode: wind-down; the final anchor is not mined yet (the next cycle finishes it)"
          : "mode: wind-down; no keeper configured, so no final anchor can be published",
      );
    }
  }
  say(
    `mode: ${state.mode}${state.since ? ` since ${state.since}` : ""}` +
      (written > 0 ? ` (${written} mode record${written === 1 ? "" : "s"} written)` : ""),
  );
  return { mode: state.mode, since: state.since, written, ...(burn ? { burn } : {}) };
}
