import { AUGUR_SCORE_V1, REFEREE_METHOD, RISK_SCORE_V1, STEWARDSHIP_V1 } from "@augur/scorer";
import type { Kysely } from "kysely";
import { assertFormulasNoticed, type FormulaFamily, type FormulaVersions } from "../modes/formulas";
import { sealSeasonReferee } from "../referee/seal";
import { sealSeasonRisk } from "../risk/seal";
import { recordStewardshipDays } from "../stewardship/days";
import type { Database } from "../store/schema";
import type { Scorer } from "./seams";

export type RiskFormula = typeof sealSeasonRisk;
export type RefereeFormula = typeof sealSeasonReferee;
export type StewardshipFormula = typeof recordStewardshipDays;

/**
 * The formula versions this build carries, per family, oldest first (the registry the cycle's
 * steps choose from by date: docs/engine.md, "Formula versions"). A new version goes at the end
 * of its family, after a methodology notice sealed at least 14 days before its effective date.
 * The score family's implementation is the cycle's scorer (incremental or from scratch).
 */
export const scoreFormulas = (scorer: Scorer): FormulaVersions<Scorer> => [
  { id: AUGUR_SCORE_V1.version, impl: scorer },
];
export const RISK_FORMULAS: FormulaVersions<RiskFormula> = [
  { id: RISK_SCORE_V1.version, impl: sealSeasonRisk },
];
export const REFEREE_FORMULAS: FormulaVersions<RefereeFormula> = [
  { id: REFEREE_METHOD, impl: sealSeasonReferee },
];
export const STEWARDSHIP_FORMULAS: FormulaVersions<StewardshipFormula> = [
  { id: STEWARDSHIP_V1.version, impl: recordStewardshipDays },
];

const ids = (versions: FormulaVersions<unknown>) => versions.map((v) => v.id);

/** Every formula id this build carries, per family. */
export const BUILD_FORMULAS: Readonly<Record<FormulaFamily, readonly string[]>> = {
  score: [AUGUR_SCORE_V1.version],
  risk: ids(RISK_FORMULAS),
  stewardship: ids(STEWARDSHIP_FORMULAS),
  referee: ids(REFEREE_FORMULAS),
};

/** Refuses to start (FormulaUnnoticedError) a build carrying a formula version no valid notice covers. */
export async function assertBuildFormulasNoticed(
  db: Kysely<Database>,
  families: Readonly<Record<FormulaFamily, readonly string[]>> = BUILD_FORMULAS,
): Promise<void> {
  await assertFormulasNoticed(db, families);
}
