import { RISK_COMPONENTS, type RiskComponent, type RiskRow } from "@augur/scorer";

/** What `GET /api/v1/risk` sorts by: the score, the measurable share or one component. */
export const RISK_ORDER_KEYS = ["score", "measurable", ...RISK_COMPONENTS] as const;
export type RiskOrderKey = "score" | "measurable" | RiskComponent;
export type RiskOrder = "asc" | "desc";

function valueOf(row: RiskRow, key: RiskOrderKey): number | null {
  if (key === "score") return row.score;
  if (key === "measurable") return row.measurable_share;
  return row.components[key];
}

/**
 * Rows by `key` in `order`; unmeasured (null) rows last either way, since null is not zero and
 * must not pass for the safest or the worst; ties by vault id so the order is stable.
 */
export function orderRiskRows<R extends RiskRow>(
  rows: readonly R[],
  key: RiskOrderKey,
  order: RiskOrder,
): R[] {
  const sign = order === "asc" ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = valueOf(a, key);
    const y = valueOf(b, key);
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      return sign * (x - y);
    }
    return a.vault_id < b.vault_id ? -1 : a.vault_id > b.vault_id ? 1 : 0;
  });
}
