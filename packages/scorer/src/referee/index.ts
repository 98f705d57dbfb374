export {
  REFEREE_METHOD,
  MONKEYS,
  RANKED_FROM_CALLS,
  OUTCOME_UNITS_PER_RETURN,
  QUANTILE_PERCENTS,
} from "./constants";
export { type Hour, parseIsoHour, formatIsoHour } from "./hours";
export {
  type Direction,
  type RefereeClose,
  type RefereePrediction,
  type RefereeInput,
  type ParsedPrediction,
  type ParsedRefereeInput,
  parseRefereeInput,
} from "./input";
export { type MuEntry, type MuTable, rawMove, universeMean, muTable, muRows } from "./mu";
export { compareCodePoints } from "./code-point-order";
export { roundHalfEven } from "./round-half-even";
export { type ScoredCall, type AgentSchedule, compareSchedule, upUnitsOf, agentSchedule } from "./schedule";
export { sha256CounterStream } from "./sha256-counter";
export { cohortSeed, coinStreamBytes, coinStream, coinBit, monkeyCoin } from "./coin-stream";
export { fitsExactDoubles, monkeySums, monkeySumsBig } from "./monkey-sums";
export {
  type PercentileTally,
  type QuantileKey,
  type Quantiles,
  percentileOf,
  nearestRankQuantiles,
} from "./percentile";
export {
  type RefereeStatus,
  type RefereeAgentResult,
  type RefereeLeaderboard,
  UnknownAgentError,
  scoreSchedule,
  refereeAgent,
  refereeLeaderboard,
} from "./referee";
export {
  type RefereeDetailJson,
  type RefereeLeaderboardJson,
  refereeDetailJson,
  refereeLeaderboardJson,
} from "./json";
