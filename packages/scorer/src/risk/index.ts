export * from "./constants";
export * from "./types";
export { clamp01 } from "./clamp";
export { roundReading, roundScore } from "./round";
export { toUnixSeconds, utcDay } from "./timestamp";
export { worstFall, readWorstFall } from "./worst-fall";
export { buildCrowd, crowdLean, readSharedExposure, type Crowd, type SideTotals } from "./shared-exposure";
export { readLiquidation } from "./liquidation";
export { readExit } from "./exit";
export { readLargestDepositor } from "./largest-depositor";
export { readStopped } from "./stopped";
export { combineReadings, type RiskTotal } from "./total";
export { summariseCoverage } from "./coverage";
export { readComponents, scoreVault, scoreVaults } from "./score-vaults";
export { sortRiskRows, isRiskSortKey, RISK_SORT_KEYS, type RiskSortKey } from "./sort";
export { parseVault, parseVaultsFile, VAULT_FIELDS } from "./validate";
export { riskRowRecord, sealRiskRow } from "./seal-row";
export {
  deriveVaultInput,
  holderIndexFromSnapshots,
  holdingsFromTrades,
  type AgentRecords,
  type DeriveVaultOptions,
  type SnapshotRecord,
  type TradeRecord,
  type VenueFacts,
} from "./derive";
export {
  componentReadingRecord,
  NULL_REASONS,
  readSummaryComponents,
  readVaultComponents,
  rowFromReadings,
  summariseVault,
  sealComponentReading,
  type ComponentReading,
  type ComponentSource,
  type ComponentSources,
  type HolderIndexSummary,
  type VaultSummary,
} from "./readings";
export {
  advanceRiskFold,
  emptyRiskFold,
  parseRiskFoldText,
  riskFoldText,
  riskFoldVault,
  type RiskFold,
  type RiskSnapshot,
  type RiskTrade,
} from "./fold";
