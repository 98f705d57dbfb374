import {
  announcedFormulas,
  formulaNotices,
  formulaPeriods,
  type FormulaVersions,
} from "../../modes/formulas";
import type { StewardshipSource } from "../../stewardship/days";
import { latestStewardshipDay } from "../../store/queries/stewardship";
import { STEWARDSHIP_FORMULAS, type StewardshipFormula } from "../formulas";
import type { CycleStep } from "./step";

/**
 * Stewardship: the monitor syncs the chain and seals one record for each UTC day closed since
 * the last. Sealed after the anchor step, like score manifests: the next anchor covers them.
 * Each day is measured by the version in force at the day's end (its as-of time): a pass that
 * crosses an effective time records the days before it with the old version, then the rest.
 */
export function stewardshipStep(
  source: StewardshipSource,
  versions: FormulaVersions<StewardshipFormula> = STEWARDSHIP_FORMULAS,
): CycleStep {
  return {
    name: "stewardship",
    runsWhenClosing: false,
    async run({ store, now, say }) {
      if (versions.length === 1) return { stewardshipDays: await versions[0].impl(store, source, now, say) };
      const after = (await latestStewardshipDay(store.db))?.as_of ?? 0;
      const announced = announcedFormulas(await formulaNotices(store.db));
      const stewardshipDays: string[] = [];
      for (const period of formulaPeriods(versions, announced, after, now))
        stewardshipDays.push(...(await period.version.impl(store, source, now, say, period.through)));
      return { stewardshipDays };
    },
  };
}
