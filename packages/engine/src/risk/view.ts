import { deriveVaultInput, type VaultInput } from "@augur/scorer";
import type { DecisionPoint, SnapshotPoint, TradePoint } from "../site/api/record-bodies";

export interface AgentBook {
  readonly agentId: string;
  readonly snapshots: readonly SnapshotPoint[];
  readonly trades: readonly TradePoint[];
  readonly decisions: readonly DecisionPoint[];
}

/**
 * Each book as a vault with the scorer's `deriveVaultInput` (facts the records do not carry stay
 * unknown). The cycle scores a season's vaults together with `scoreVaults`, so shared exposure
 * sees the whole crowd, and stores each vault's capital beside its sealed row.
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
