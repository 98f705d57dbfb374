import { deriveVaultInput, scoreVaults, type RiskReport, type VaultInput } from "@augur/scorer";
import type { DecisionPoint, SnapshotPoint, TradePoint } from "../site/api/record-bodies";

export interface AgentBook {
  readonly agentId: string;
  readonly snapshots: readonly SnapshotPoint[];
  readonly trades: readonly TradePoint[];
  readonly decisions: readonly DecisionPoint[];
}

/**
 * Each book as a vault with the scorer's `deriveVaultInput` (facts the records do not carry stay
 * unknown). The cycle keeps these to store each vault's capital beside its sealed row.
 */
export function riskVaults(books: readonly AgentBook[], asOf: number): VaultInput[] {
  return books.map((b) =>
    deriveVaultInput(
      {
        snapshots: b.snapshots.map((s) => ({ at: s.at, nav: s.nav, flow: s.flow, invested: s.invested })),
        trades: b.trades.map((t) => ({ ...t })),
        decisions: b.decisions.map((d) => ({
          at: d.at,
          decider: d.source,
          asset: d.asset,
          action: d.action,
        })),
      },
      { id: b.agentId, ownDecider: "decider", asOf },
    ),
  );
}

/**
 * The vault risk of every agent of a season, all scored together with `scoreVaults` so shared
 * exposure sees the whole crowd. The one implementation behind the site's view and the cycle.
 */
export function riskView(books: readonly AgentBook[], asOf: number): RiskReport {
  return scoreVaults(riskVaults(books, asOf));
}
