import { Interface } from "ethers";

/**
 * The slice of CallLedger the engine uses (contracts/interfaces/ICallLedger.sol): the events the
 * indexer follows, the oracle the keeper takes the referee's closes from, and what the settler
 * calls (`settle`, `expire`, the reveal timeout) with the errors its simulations may revert with.
 */
export const CALL_LEDGER_ABI = [
  "function oracle() view returns (address)",
  "function revealTimeout() view returns (uint32)",
  "function settle(uint256 callId) returns (uint8 outcome)",
  "function expire(uint256 callId)",
  "error CallLedgerUnknownCall(uint256 callId)",
  "error CallLedgerNotCommitted(uint256 callId, uint8 status)",
  "error CallLedgerNotRevealed(uint256 callId, uint8 status)",
  "error CallLedgerNotClosed(uint256 callId, uint256 closesAt, uint256 timestamp)",
  "error CallLedgerRevealNotTimedOut(uint256 callId, uint256 deadline, uint256 timestamp)",
  "event Committed(uint256 indexed callId, address indexed agent, bytes32 commitment, uint64 committedAt)",
  "event Revealed(uint256 indexed callId, address indexed agent, address indexed asset, uint32 window, uint8 direction, uint16 confidenceBps, bytes32 salt, uint256 entryPrice, uint40 closesAt, uint256 vote)",
  "event Settled(uint256 indexed callId, address indexed agent, uint8 outcome, uint256 exitPrice)",
  "event Expired(uint256 indexed callId, address indexed agent)",
  "event Consensus(address indexed asset, uint32 indexed window, uint256 indexed bucket, uint8 direction, uint16 strengthBps, uint32 voters, uint256 upWeight, uint256 downWeight)",
] as const;

export const callLedger = new Interface(CALL_LEDGER_ABI);

/** ICallLedger.Direction: None, Up, Down. */
export const DIRECTIONS = [null, "up", "down"] as const;
/** ICallLedger.Outcome: None, Hit, Miss, Void. */
export const OUTCOMES = [null, "hit", "miss", "void"] as const;
