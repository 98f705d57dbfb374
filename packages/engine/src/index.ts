/**
 * @augur/engine — what code outside the engine (scripts, contract tests, tasks) may use. Nothing
 * outside imports `src/...`: add a line here instead. Test helpers are in `@augur/engine/test-support`.
 */

// store: the database, its SQL and the Merkle log
export { openStore, type Store } from "./store/open";
export { storeLocation, SQLITE_FILE_NAME, type StoreLocation } from "./store/location";
export { MerkleLogStore, STORED_FROM_LEVEL } from "./store/merkle/log-store";
export { latestAnchor } from "./store/queries/anchors";
export { appendModeRecord } from "./store/queries/modes";
export { latestScoringTime, leaderboard, scoreAtWithAnchor } from "./store/queries/scores";
export { findSeason, insertSeason, type Season } from "./store/queries/seasons";
export { listStewardshipDays, stewardshipTransfersBefore } from "./store/queries/stewardship";

// chain
export { REPO_ROOT, startHardhatNode, type HardhatNode } from "./chain/node";
export { ReorgTooDeepError } from "./indexer/errors";
export { openKeeper, type KeeperHandle } from "./keeper/config";

// features
export { addDays, checkedDay } from "./modes/days";
export { assertMaySpend } from "./modes/guard";
export { assertMaySpendAt, spendRefusal, type SpendScope } from "./modes/spend";
export { FinalNoticeSealedError, SpendRefusedError, VestingBurnError } from "./modes/errors";
export { burnUnvestedOnce, describeBurn, vestingBurner, type UnvestedBurn } from "./modes/vesting";
export { sealFinalNotice } from "./modes/final";
export { registryFinalPoster } from "./keeper/final-notice";
export { readReceipt } from "./modes/receipt/chain";
export type { ReceiptDocument } from "./modes/receipt/document";
export { currentMode, modeHistory, type ModeState } from "./modes/state";
export {
  MULTICALL3,
  RpcMeasureChain,
  type MeasureChain,
  type MeasureProvider,
  type PinnedBlock,
} from "./measure/chain";
export { measureHour, type HourBalances, type Listing, type MeasureSource } from "./measure/hour";
export { readCarried, type CarriedState } from "./measure/carried";
export { eip1271Check } from "./records/wallet";
export { fieldDifferences, type ChainReader } from "./verify/deep";
export { chainReader, NotRemeasurableError, remeasurer, type RemeasureContracts } from "./verify/remeasure";
export type { StewardshipSettings } from "./stewardship/config";
export { openStewardshipMonitor } from "./stewardship/monitor";

// cycle
export { runCycle } from "./cycle/run";
export { assertBuildFormulasNoticed } from "./cycle/formulas";
export type { AnchorReceipt, Keeper, LogHead } from "./keeper/seam";
export { anchorStep, measureStep, modesStep, riskStep, stewardshipStep } from "./cycle/steps";
export { dateOf, recordStewardshipDays, type StewardshipSource } from "./stewardship/days";
export { readLpLock } from "./stewardship/lp-lock";

// http and cli
export { buildApp } from "./api/app";
export { DEFAULT_INGEST_WORKERS } from "./records/ingest-pool";
export { main as runCli } from "./cli/main";
export { cycleOnce } from "./cli/commands/cycle";
