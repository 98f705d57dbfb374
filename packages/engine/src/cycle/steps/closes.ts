import { cacheHourlyCloses, type ClosesSource } from "../../closes/cache";
import type { CycleStep } from "./step";

/**
 * Closes: the hour's close of every asset `source` prices, sealed once (the referee's input);
 * assets without a price are reported, not fatal.
 */
export function closesStep(source: ClosesSource): CycleStep {
  return {
    name: "closes",
    runsWhenClosing: false,
    async run({ store, asOf, now, say }) {
      const report = await cacheHourlyCloses(store, source, asOf, now);
      const missed = report.missed.length
        ? `; no price for ${report.missed.length} (${[...new Set(report.missed.map((m) => m.reason))].join(", ")})`
        : "";
      say(`closes: ${report.stored} hourly closes sealed as of ${asOf}${missed}`);
      return { closes: report.stored };
    },
  };
}
