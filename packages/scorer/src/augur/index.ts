// The public API of augur-score/v1, named one by one so it cannot collide with the other
// methodologies exported beside it from @augur/scorer.
export {
  AUGUR_SCORE_V1,
  FORMULAS,
  TERM_NAMES,
  DNA_FEATURE_NAMES,
  STYLES,
  isStyle,
  type AugurFormula,
  type TermName,
  type DnaFeatureName,
  type FeatureRegion,
  type Style,
} from "./formula";
export type {
  SeasonInput,
  AgentInput,
  SnapshotInput,
  DecisionInput,
  TradeInput,
  CallInput,
  PriorScoreInput,
} from "./types";
export {
  validateSeasonInput,
  checkSnapshotRow,
  checkDecisionRow,
  checkTradeRow,
  type AgentRule,
} from "./input";
export {
  scoreSeason,
  scoreSeasonAgents,
  scoreSeasonJson,
  SeasonScorer,
  rankRows,
  type ScoreRow,
  type SeasonScores,
  type UnrankedRow,
  type SeasonAgentRecords,
  type SeasonHeader,
  type AgentContext,
} from "./season";
export * from "./incremental";
export { manifestText, sealedManifest, type SealedManifest } from "./manifest-seal";
export {
  deriveOutputs,
  type ScoreManifest,
  type ManifestSubject,
  type ManifestInputs,
  type InvalidInputNote,
  type MeasuredValues,
  type ManifestOutputs,
  type CreatorInput,
} from "./manifest";
export {
  recomputeManifest,
  UnknownFormulaError,
  MalformedManifestError,
  type RecomputeResult,
  type RecomputeCheck,
} from "./recompute";
export { computeTerms, type Terms } from "./terms";
export { measureDna, strategyMatch, type DnaFeatures } from "./dna";
export { ineligibleReason, type IneligibleReason } from "./eligibility";
export { competitionRanks } from "./rank";
export { sealSnapshot } from "./snapshot-seal";
export { MANIFEST_VERSION, inputRoots, sealInput, type InputRoots } from "./input-roots";
