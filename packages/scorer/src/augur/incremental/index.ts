// Incremental augur-score/v1: one agent's season folded hour by hour, giving the from-scratch manifests.
export {
  STATE_VERSION,
  emptyState,
  stateText,
  parseStateText,
  sealStateText,
  type AgentSeasonState,
  type SnapshotFold,
  type DecisionFold,
  type TradeFold,
  type CallFold,
} from "./state";
export { advanceState, NotAdvanceableError, type RowsTaken, type SeasonBounds } from "./advance";
export { manifestFrom } from "./manifest-from";
