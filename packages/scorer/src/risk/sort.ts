import { RISK_COMPONENTS, type RiskComponent } from "./constants";
import type { RiskRow } from "./types";

export type RiskSortKey = "score" | RiskComponent;

export const RISK_SORT_KEYS: readonly RiskSortKey[] = ["score", ...RISK_COMPONENTS];

export function isRiskSortKey(value: string): value is RiskSortKey {
  return (RISK_SORT_KEYS as readonly string[]).includes(value);
}

function valueOf(row: RiskRow, key: RiskSortKey): number | null {
  return key === "score" ? row.score : row.components[key];
}

/** Worst first; unmeasured rows last (null is not zero, so it sorts below every reading); ties by id. */
export function sortRiskRows(rows: readonly RiskRow[], key: RiskSortKey): RiskRow[] {
  return [...rows].sort((a, b) => {
    const x = valueOf(a, key);
    const y = valueOf(b, key);
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      return y - x;
    }
    return a.vault_id < b.vault_id ? -1 : a.vault_id > b.vault_id ? 1 : 0;
  });
}
