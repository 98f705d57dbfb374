import { Interface, type ErrorDescription } from "ethers";
import { ANCHOR_REGISTRY_ABI, CALL_LEDGER_ABI, PRICE_ORACLE_ABI } from "./abi";
import {
  AgentError,
  BadDirectionError,
  CommitmentMismatchError,
  ConfidenceOutOfRangeError,
  NoPriceError,
  NotCallAgentError,
  NotClosedError,
  NotExpirableYetError,
  RevealTimedOutError,
  RevealTooEarlyError,
  StakeBelowMinimumError,
  StakeLockedError,
  UnknownCallError,
  WindowNotAllowedError,
  WrongCallStatusError,
} from "./errors";

const ERRORS = new Interface([
  ...CALL_LEDGER_ABI.filter((f) => f.startsWith("error")),
  ...PRICE_ORACLE_ABI.filter((f) => f.startsWith("error")),
  ...ANCHOR_REGISTRY_ABI.filter((f) => f.startsWith("error")),
]);

const STATUS = ["none", "committed", "revealed", "settled", "expired"] as const;

/** Revert data (0x…) wherever ethers or the node put it, if any. */
function revertData(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  const stack: unknown[] = [error];
  while (stack.length > 0) {
    const current = stack.pop();
    if (current === null || typeof current !== "object" || seen.has(current)) continue;
    seen.add(current);
    const data = (current as { data?: unknown }).data;
    if (typeof data === "string" && data.startsWith("0x") && data.length >= 10) return data;
    for (const key of ["error", "info", "cause", "data"])
      stack.push((current as Record<string, unknown>)[key]);
  }
  return undefined;
}

/** The custom error a call reverted with, decoded, or undefined. */
export function decodeRevert(error: unknown): ErrorDescription | undefined {
  const data = revertData(error);
  if (!data) return undefined;
  try {
    return ERRORS.parseError(data) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * A contract revert as the typed error that says what to do; anything it does not recognise is
 * returned unchanged. `committedBlock` only improves the RevealTooEarly wording.
 */
export function toAgentError(error: unknown, hints: { committedBlock?: number } = {}): unknown {
  if (error instanceof AgentError) return error;
  const parsed = decodeRevert(error);
  if (!parsed) return error;
  const a = parsed.args;
  switch (parsed.name) {
    case "CallLedgerRevealTooEarly":
      return new RevealTooEarlyError(a[0] as bigint, hints.committedBlock, Number(a[1]));
    case "CallLedgerRevealTimedOut":
      return new RevealTimedOutError(a[0] as bigint, Number(a[1]));
    case "CallLedgerRevealNotTimedOut":
      return new NotExpirableYetError(a[0] as bigint, Number(a[1]));
    case "CallLedgerNotClosed":
      return new NotClosedError(a[0] as bigint, Number(a[1]));
    case "CallLedgerUnknownCall":
      return new UnknownCallError(a[0] as bigint);
    case "CallLedgerNotCommitted":
      return new WrongCallStatusError(a[0] as bigint, STATUS[Number(a[1])] ?? "unknown", "committed");
    case "CallLedgerNotRevealed":
      return new WrongCallStatusError(a[0] as bigint, STATUS[Number(a[1])] ?? "unknown", "revealed");
    case "CallLedgerNotCallAgent":
      return new NotCallAgentError(a[0] as bigint, a[1] as string, a[2] as string);
    case "CallLedgerCommitmentMismatch":
      return new CommitmentMismatchError(a[0] as bigint, a[1] as string, a[2] as string);
    case "CallLedgerWindowNotAllowed":
      return new WindowNotAllowedError(Number(a[0]), []);
    case "CallLedgerBadDirection":
      return new BadDirectionError(Number(a[0]));
    case "CallLedgerBadConfidence":
      return new ConfidenceOutOfRangeError(Number(a[0]));
    case "CallLedgerStakeBelowMinimum":
      return new StakeBelowMinimumError(a[0] as string, a[1] as bigint, a[2] as bigint);
    case "CallLedgerStakeLocked":
      return new StakeLockedError(a[0] as bigint, a[1] as bigint, a[2] as bigint);
    case "PriceOracleNoSource":
    case "PriceOracleWindowNotCovered":
    case "PriceOracleStalePrice":
      return new NoPriceError(a[0] as string, parsed.name.replace("PriceOracle", ""));
    default:
      return new AgentError("CONTRACT_REVERT", `the contract refused: ${parsed.name}(${a.join(", ")})`, {
        name: parsed.name,
        args: [...a].map(String),
      });
  }
}
