/**
 * The slices of the contracts' ABIs the toolkit calls, human-readable. The package cannot import
 * the root project's TypeChain output (it must work for an agent that installs only this
 * package); `abi.test.ts` checks every fragment against the compiled contracts.
 */
export const CALL_LEDGER_ABI = [
  "function deposit(uint256 amount)",
  "function withdraw(uint256 amount)",
  "function commit(bytes32 commitment) returns (uint256 callId)",
  "function reveal(uint256 callId, address asset, uint32 window, uint8 direction, uint16 confidenceBps, bytes32 salt)",
  "function settle(uint256 callId) returns (uint8 outcome)",
  "function expire(uint256 callId)",
  "function usdg() view returns (address)",
  "function oracle() view returns (address)",
  "function minStake() view returns (uint256)",
  "function revealTimeout() view returns (uint32)",
  "function consensusQuorum() view returns (uint32)",
  "function thresholdBps() view returns (uint16)",
  "function windowAllowed(uint32 window) view returns (bool)",
  "function computeCommitment(address agent, address asset, uint32 window, uint8 direction, uint16 confidenceBps, bytes32 salt) view returns (bytes32)",
  "function score(address agent) view returns (uint256)",
  "function record(address agent) view returns ((uint256 stake, uint256 commits, uint256 openCalls, uint256 hits, uint256 misses, uint256 voids, uint256 streak, uint256 bestStreak))",
  "function getCall(uint256 callId) view returns ((address agent, uint64 committedAt, uint8 status, uint8 outcome, bytes32 commitment, address asset, uint32 window, uint8 direction, uint16 confidenceBps, uint40 closesAt, uint256 entryPrice))",
  "function consensus(address asset, uint32 window) view returns (uint256 bucket, uint256 upWeight, uint256 downWeight, uint32 voters, uint8 direction)",
  "function owner() view returns (address)",
  "event Committed(uint256 indexed callId, address indexed agent, bytes32 commitment, uint64 committedAt)",
  "event WindowSet(uint32 indexed window, bool allowed)",
  "error CallLedgerZeroAmount()",
  "error CallLedgerInsufficientStake(uint256 stake, uint256 amount)",
  "error CallLedgerStakeLocked(uint256 remaining, uint256 minStake, uint256 openCalls)",
  "error CallLedgerStakeBelowMinimum(address agent, uint256 stake, uint256 minStake)",
  "error CallLedgerUnknownCall(uint256 callId)",
  "error CallLedgerNotCommitted(uint256 callId, uint8 status)",
  "error CallLedgerNotRevealed(uint256 callId, uint8 status)",
  "error CallLedgerNotCallAgent(uint256 callId, address agent, address caller)",
  "error CallLedgerRevealTooEarly(uint256 callId, uint256 committedAt)",
  "error CallLedgerRevealTimedOut(uint256 callId, uint256 deadline, uint256 timestamp)",
  "error CallLedgerRevealNotTimedOut(uint256 callId, uint256 deadline, uint256 timestamp)",
  "error CallLedgerCommitmentMismatch(uint256 callId, bytes32 committed, bytes32 revealed)",
  "error CallLedgerWindowNotAllowed(uint32 window)",
  "error CallLedgerBadDirection(uint8 direction)",
  "error CallLedgerBadConfidence(uint16 confidenceBps)",
  "error CallLedgerNotClosed(uint256 callId, uint256 closesAt, uint256 timestamp)",
] as const;

export const PRICE_ORACLE_ABI = [
  "function price(address asset) view returns (uint256)",
  "function priceAt(address asset, uint256 timestamp) view returns (uint256)",
  "function twapWindow() view returns (uint32)",
  "function usdg() view returns (address)",
  "function maxStaleness() view returns (uint32)",
  "function poolOf(address asset) view returns (address pool, bool assetIsToken0, uint8 assetDecimals, uint8 usdgDecimals)",
  "function updaterOf(address asset) view returns (address)",
  "function setPool(address asset, address pool)",
  "function setUpdater(address asset, address updater)",
  "function pushPrice(address asset, uint256 price18)",
  "function owner() view returns (address)",
  "error PriceOracleNoSource(address asset)",
  "error PriceOracleWindowNotCovered(address asset, uint256 timestamp, uint256 oldestCovered)",
  "error PriceOracleStalePrice(address asset, uint256 pricedAt, uint256 timestamp, uint256 maxStaleness)",
] as const;

export const ANCHOR_REGISTRY_ABI = [
  "function post(uint64 treeSize, bytes32 root, bytes32[] consistencyProof) returns (uint256 index)",
  "function latest() view returns ((uint64 treeSize, bytes32 root, uint64 timestamp, uint64 blockNumber))",
  "function anchorCount() view returns (uint256)",
  "function hasRole(bytes32 role, address account) view returns (bool)",
  "function KEEPER_ROLE() view returns (bytes32)",
  "event Anchored(uint256 indexed index, uint64 treeSize, bytes32 root)",
] as const;

export const ERC20_ABI = [
  "function balanceOf(address) view returns (uint256)",
  "function allowance(address owner, address spender) view returns (uint256)",
  "function approve(address spender, uint256 amount) returns (bool)",
  "function decimals() view returns (uint8)",
  "function symbol() view returns (string)",
] as const;
