export { STEWARDSHIP_V1, type StewardshipConstants } from "./constants";
export { parseDay, consecutiveDays } from "./days";
export {
  type DailyMeasurement,
  type StewardshipState,
  type DailyTriggerState,
  declinedBy,
  stewardshipStates,
} from "./triggers";
export {
  type TokenTransfer,
  type FundingTransfer,
  NATIVE_ASSET,
  type PoolSwap,
  type StewardshipConfig,
  swapId,
  checkTransfers,
  checkFunding,
  checkSwaps,
  chainOrder,
} from "./chain-data";
export { applyTransfers, notCounted, dustUnits, distinctHolders } from "./holders";
export { type ExclusionCriterion, type ClusterEvidence } from "./evidence";
export { TransferGraph } from "./clusters";
export { type RoundTrips, roundTripTakers, roundTripSwapIds } from "./round-trips";
export { type IntermediaryTrade, intermediaryTrades } from "./intermediary";
export { type FundedCluster, fundingSources, fundedClusters } from "./funded-clusters";
export { type DayInput, type DayMeasurementResult, aggregateSingles, measureDay } from "./measure-day";
export { type LpLockReading, type LpLockRecord, lpLockAlarm } from "./lp-lock";
