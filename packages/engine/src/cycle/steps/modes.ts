import { evaluateMode, type StewardshipDaysSource } from "../../modes/evaluate";
import type { UnvestedBurner } from "../../modes/vesting";
import { latestAnchor } from "../../store/queries/anchors";
import type { CycleStep } from "./step";

/**
 * Modes: evaluates the mode from the sealed stewardship days (`days`, or the store's own
 * `stewardship_days`) and the operator notices, and records a change (see modes/evaluate.ts).
 * With it in the list the cycle honours the mode: once winding down or archived, only the anchor
 * step and this one run. With `burner` (an operator allocation), the wind-down burns its unvested
 * part before the archive.
 */
export function modesStep(days?: StewardshipDaysSource, burner?: UnvestedBurner): CycleStep {
  return {
    name: "modes",
    runsWhenClosing: true,
    async run(context) {
      const { store, now, say, reanchor } = context;
      const mode = await evaluateMode({
        store,
        now,
        say,
        ...(days ? { days } : {}),
        ...(burner ? { burner } : {}),
        ...(reanchor ? { anchorHead: reanchor } : {}),
      });
      context.anchor = await latestAnchor(store.db);
      return { mode };
    },
  };
}
