import { formulaAt, type FormulaVersions } from "../../modes/formulas";
import { REFEREE_TAIL_SECONDS } from "../../referee/seal";
import { REFEREE_FORMULAS, type RefereeFormula } from "../formulas";
import { seasonsInTurn, type CycleStep } from "./step";

/**
 * Referee: every season started by the cycle's hour and closed less than `REFEREE_TAIL_SECONDS`
 * ago gets its board for the hour, from the closes and calls below the newest anchor. It runs
 * here, hourly, never in a request: the API serves the sealed board. The board is made by the
 * version in force at the hour's end.
 */
export function refereeStep(versions: FormulaVersions<RefereeFormula> = REFEREE_FORMULAS): CycleStep {
  return {
    name: "referee",
    runsWhenClosing: false,
    async run({ store, asOf, now, say, anchor }) {
      let refereeBoards = 0;
      const sealSeasonReferee = (await formulaAt(store.db, versions, asOf)).impl;
      for (const season of await seasonsInTurn(store, asOf, REFEREE_TAIL_SECONDS)) {
        const outcome = await sealSeasonReferee(store, season, asOf, anchor, now);
        if (outcome.sealed) {
          refereeBoards++;
          say(`referee season ${season.id}: board of ${outcome.agents} agents sealed as of ${asOf}`);
        } else if (outcome.reason !== "already") {
          say(
            `referee season ${season.id}: no board (${outcome.reason === "unanchored" ? "nothing anchored yet" : "input unchanged"})`,
          );
        }
      }
      return { refereeBoards };
    },
  };
}
