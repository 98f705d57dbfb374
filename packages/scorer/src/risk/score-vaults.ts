import { summariseCoverage } from "./coverage";
import { readExit } from "./exit";
import { readLargestDepositor } from "./largest-depositor";
import { readLiquidation } from "./liquidation";
import { buildCrowd, type Crowd, readSharedExposure } from "./shared-exposure";
import { roundReading } from "./round";
import { readStopped } from "./stopped";
import { combineReadings } from "./total";
import type { RiskComponents, RiskReport, RiskRow, VaultInput } from "./types";
import { readWorstFall } from "./worst-fall";

/** Reads every component of one vault, as published (6 decimals). Shared exposure needs the crowd of all vaults. */
export function readComponents(vault: VaultInput, crowd: Crowd): RiskComponents {
  return readComponentsWith(readWorstFall(vault.holder_index), vault, crowd);
}

/** Every component, the worst fall's reading given (from the whole holder index or its summary). */
export function readComponentsWith(
  worstFall: number | null,
  vault: Omit<VaultInput, "holder_index">,
  crowd: Crowd,
): RiskComponents {
  return {
    worst_fall: roundReading(worstFall),
    shared_exposure: roundReading(readSharedExposure(vault.holdings, crowd)),
    liquidation: roundReading(readLiquidation(vault.liquidation_cushion)),
    exit: roundReading(readExit(vault.free_share)),
    largest_depositor: roundReading(readLargestDepositor(vault.largest_depositor_share)),
    stopped: roundReading(readStopped(vault.days_traded, vault.days_observed)),
  };
}

export function scoreVault(vault: VaultInput, crowd: Crowd): RiskRow {
  const components = readComponents(vault, crowd);
  const { score, measurable_share, reason } = combineReadings(components);
  return { vault_id: vault.id, score, measurable_share, components, reason };
}

/** risk-score/v1 over a set of vaults (validated): one row per vault, in input order, and coverage. */
export function scoreVaults(vaults: readonly VaultInput[]): RiskReport {
  const crowd = buildCrowd(vaults);
  const rows = vaults.map((vault) => scoreVault(vault, crowd));
  return { rows, coverage: summariseCoverage(vaults, rows) };
}
