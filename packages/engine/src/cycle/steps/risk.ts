import { formulaAt, type FormulaVersions } from "../../modes/formulas";
import { RISK_FORMULAS, type RiskFormula } from "../formulas";
import { CYCLE_SECONDS, seasonsInTurn, type CycleStep } from "./step";

/**
 * Risk: every season scored this hour gets its sealed vault risk rows once, from the records
 * below the newest anchor (the same rows scoring read), by the version in force at the hour's end.
 */
export function riskStep(versions: FormulaVersions<RiskFormula> = RISK_FORMULAS): CycleStep {
  return {
    name: "risk",
    runsWhenClosing: false,
    async run({ store, asOf, now, say, rows, anchor }) {
      let riskRows = 0;
      const sealSeasonRisk = (await formulaAt(store.db, versions, asOf)).impl;
      for (const season of await seasonsInTurn(store, asOf, CYCLE_SECONDS)) {
        const sealed = await sealSeasonRisk(store, season.id, asOf, anchor?.tree_size ?? 0, now, rows);
        if (sealed === undefined) continue;
        riskRows += sealed;
        say(`risk season ${season.id}: ${sealed} vault rows sealed as of ${asOf}`);
      }
      return { riskRows };
    },
  };
}
