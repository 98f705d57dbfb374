import { formulaAt, type FormulaVersions } from "../../modes/formulas";
import { riskFolds, type RiskFolds } from "../../risk/folds";
import type { RiskStorage } from "../../risk/seal";
import type { ScoringMode } from "../incremental-scorer";
import { RISK_FORMULAS, type RiskFormula } from "../formulas";
import { CYCLE_SECONDS, seasonsInTurn, type CycleStep } from "./step";

/**
 * Risk: every season scored this hour gets its sealed vault risk rows once, from the records
 * below the newest anchor (the same rows scoring read), by the version in force at the hour's end.
 * `path`: "incremental" (default) derives each vault from the agent's fold (the process's
 * `riskFolds` of the store, or the folds given), "from-scratch" from its whole book; both seal
 * the same readings and rows. `storage`: stored on change (default: the process's memory of the
 * store's last hour, or the memory given) or "every-hour" (the reference).
 */
export function riskStep(
  versions: FormulaVersions<RiskFormula> = RISK_FORMULAS,
  path: ScoringMode | RiskFolds = "incremental",
  storage?: RiskStorage,
): CycleStep {
  return {
    name: "risk",
    runsWhenClosing: false,
    async run({ store, asOf, now, say, rows, anchor }) {
      let riskRows = 0;
      const sealSeasonRisk = (await formulaAt(store.db, versions, asOf)).impl;
      const folds = path === "from-scratch" ? undefined : path === "incremental" ? riskFolds(store) : path;
      for (const season of await seasonsInTurn(store, asOf, CYCLE_SECONDS)) {
        const size = anchor?.tree_size ?? 0;
        const sealed = await sealSeasonRisk(store, season.id, asOf, size, now, rows, folds, storage);
        if (sealed === undefined) continue;
        riskRows += sealed;
        say(`risk season ${season.id}: ${sealed} vault rows sealed as of ${asOf}`);
      }
      return { riskRows };
    },
  };
}
