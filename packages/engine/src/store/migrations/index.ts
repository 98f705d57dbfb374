import type { Migration, MigrationProvider } from "kysely";
import type { DialectName } from "../dialect";
import { initial } from "./001_initial";
import { keeperIndexer } from "./002_keeper_indexer";
import { callEvents } from "./003_call_events";
import { riskRows } from "./004_risk_rows";
import { hourlyCloses } from "./005_hourly_closes";
import { stewardship } from "./006_stewardship";
import { modes } from "./007_modes";
import { refereeBoards } from "./008_referee_boards";
import { settler } from "./009_settler";
import { recordMoments } from "./010_record_moments";
import { measuredInputs } from "./011_measured_inputs";
import { insertGuards } from "./012_insert_guards";
import { measuredHours } from "./013_measured_hours";
import { readingsRetirements } from "./014_readings_retirements";
import { finalNotice } from "./015_final_notice";
import { scoreStates } from "./016_score_states";
import { erasure } from "./017_erasure";
import { carriedBalances } from "./018_carried_balances";
import { riskStates } from "./019_risk_states";
import { riskHours } from "./020_risk_hours";
import { riskCapital } from "./022_risk_capital";
import { recordFormulas } from "./024_record_formulas";
import { guardsEverywhere } from "./025_guards_everywhere";

/**
 * Every schema version, in order. A migration is never edited once released: a change is a new
 * entry. Names sort in application order.
 */
export function migrations(dialect: DialectName): Record<string, Migration> {
  return {
    "001_initial": initial(dialect),
    "002_keeper_indexer": keeperIndexer(),
    "003_call_events": callEvents(),
    "004_risk_rows": riskRows(dialect),
    "005_hourly_closes": hourlyCloses(dialect),
    "006_stewardship": stewardship(dialect),
    "007_modes": modes(dialect),
    "008_referee_boards": refereeBoards(dialect),
    "009_settler": settler(),
    "010_record_moments": recordMoments(dialect),
    "011_measured_inputs": measuredInputs(),
    "012_insert_guards": insertGuards(dialect),
    "013_measured_hours": measuredHours(),
    "014_readings_retirements": readingsRetirements(dialect),
    "015_final_notice": finalNotice(dialect),
    "016_score_states": scoreStates(dialect),
    "017_erasure": erasure(dialect),
    "018_carried_balances": carriedBalances(),
    "019_risk_states": riskStates(dialect),
    "020_risk_hours": riskHours(dialect),
    "022_risk_capital": riskCapital(dialect),
    "024_record_formulas": recordFormulas(dialect),
    "025_guards_everywhere": guardsEverywhere(dialect),
  };
}

export function migrationProvider(dialect: DialectName): MigrationProvider {
  return { getMigrations: async () => migrations(dialect) };
}
