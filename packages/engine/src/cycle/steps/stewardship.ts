import { recordStewardshipDays, type StewardshipSource } from "../../stewardship/days";
import type { CycleStep } from "./step";

/**
 * Stewardship: the monitor syncs the chain and seals one record for each UTC day closed since
 * the last. Sealed after the anchor step, like score manifests: the next anchor covers them.
 */
export function stewardshipStep(source: StewardshipSource): CycleStep {
  return {
    name: "stewardship",
    runsWhenClosing: false,
    async run({ store, now, say }) {
      return { stewardshipDays: await recordStewardshipDays(store, source, now, say) };
    },
  };
}
