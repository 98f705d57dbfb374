import type { AugurFormula } from "./formula";

/**
 * Why an agent has no score this season (the site shows it in place of a number). `invalid_input`:
 * a record of the agent could not be scored at all; its manifest names the record's seal.
 */
export type IneligibleReason = "too_few_snapshots" | "too_few_own_decisions" | "invalid_input";

/**
 * An agent ranks with ≥ 5 decisions by its own decider (protective exits and system holds do not
 * count) and ≥ 3 snapshots in the season. Returns null when eligible; snapshots are checked
 * first, since without them there is nothing to measure at all.
 */
export function ineligibleReason(
  snapshotCount: number,
  ownDecisionCount: number,
  formula: AugurFormula,
): IneligibleReason | null {
  if (snapshotCount < formula.constants.min_snapshots) return "too_few_snapshots";
  if (ownDecisionCount < formula.constants.min_own_decisions) return "too_few_own_decisions";
  return null;
}
