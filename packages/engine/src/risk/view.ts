import { deriveVaultInput, type VaultInput, type VenueFacts } from "@augur/scorer";
import type { SnapshotPoint, TradePoint } from "@augur/records";

export interface AgentBook {
  readonly agentId: string;
  /** What a vault reads of a snapshot (its seal is not part of the risk inputs). */
  readonly snapshots: readonly Pick<SnapshotPoint, "at" | "nav" | "flow" | "invested">[];
  readonly trades: readonly TradePoint[];
}

/**
 * A book as a vault with the scorer's `deriveVaultInput` (facts the records do not carry stay
 * unknown). The cycle derives the vaults one agent at a time and scores a season's vaults
 * together with `scoreVaults`, so shared exposure sees the whole crowd, and stores each vault's
 * capital beside its sealed row.
 */
export function riskVault(b: AgentBook, asOf: number, venue: VenueFacts = {}): VaultInput {
  return deriveVaultInput({ snapshots: b.snapshots, trades: b.trades }, { id: b.agentId, asOf, venue });
}
