import { deriveVaultInput, scoreVaults, type RiskReport } from "@augur/scorer";
import type { DecisionPoint, SnapshotPoint, TradePoint } from "./record-bodies";

export interface AgentBook {
  readonly agentId: string;
  readonly snapshots: readonly SnapshotPoint[];
  readonly trades: readonly TradePoint[];
  readonly decisions: readonly DecisionPoint[];
}

/**
 * The vault risk of every agent of a season: each book becomes a vault with the scorer's
 * `deriveVaultInput` (facts the records do not carry stay unknown) and all are scored together
 * with `scoreVaults`, so shared exposure sees the whole crowd.
 */
export function riskView(books: readonly AgentBook[], asOf: number): RiskReport {
  const vaults = books.map((b) =>
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
  return scoreVaults(vaults);
}
