import type { RiskCoverage, RiskRow, VaultInput } from "./types";

/** How much of the capital and how many of the vaults the published scores describe. */
export function summariseCoverage(vaults: readonly VaultInput[], rows: readonly RiskRow[]): RiskCoverage {
  let capital = 0;
  let scoredCapital = 0;
  let scored = 0;
  rows.forEach((row, i) => {
    const tvl = vaults[i]?.tvl_usd ?? 0;
    capital += tvl;
    if (row.score !== null) {
      scored += 1;
      scoredCapital += tvl;
    }
  });
  return {
    capital_share: capital > 0 ? scoredCapital / capital : null,
    vault_share: rows.length > 0 ? scored / rows.length : null,
    unscored: rows.length - scored,
  };
}
