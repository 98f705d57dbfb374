import { AugurError } from "@augur/scorer";

/**
 * Every refusal of the toolkit. The message is one line that says what to do; `details` holds the
 * values a program needs (call id, block, deadline, …). Subclasses only fix the code and wording.
 */
export class AgentError extends AugurError {
  override readonly name: string = "AgentError";
}

export class UnknownAssetError extends AgentError {
  override readonly name = "UnknownAssetError";
  constructor(asset: string, known: readonly string[]) {
    super(
      "UNKNOWN_ASSET",
      `unknown asset ${asset}: use one with a price source on the oracle (${known.join(", ") || "none deployed"})`,
      { asset, known },
    );
  }
}

export class WindowNotAllowedError extends AgentError {
  override readonly name = "WindowNotAllowedError";
  constructor(window: number, allowed: readonly number[]) {
    super(
      "WINDOW_NOT_ALLOWED",
      `window ${window}s is not allowed by the ledger: use one of ${allowed.join(", ") || "(none set)"} seconds`,
      { window, allowed },
    );
  }
}

export class ConfidenceOutOfRangeError extends AgentError {
  override readonly name = "ConfidenceOutOfRangeError";
  constructor(confidenceBps: unknown) {
    super(
      "CONFIDENCE_OUT_OF_RANGE",
      `confidence ${String(confidenceBps)} bps is out of range: give an integer from 5000 (a coin flip) to 10000 (certain)`,
      { confidenceBps },
    );
  }
}

export class BadDirectionError extends AgentError {
  override readonly name = "BadDirectionError";
  constructor(direction: unknown) {
    super("BAD_DIRECTION", `direction ${String(direction)} is not valid: say up or down`, { direction });
  }
}

export class BadArgumentError extends AgentError {
  override readonly name = "BadArgumentError";
  constructor(argument: string, problem: string, value?: unknown) {
    super("BAD_ARGUMENT", `--${argument} ${problem}`, { argument, value });
  }
}

export class StakeBelowMinimumError extends AgentError {
  override readonly name = "StakeBelowMinimumError";
  constructor(agent: string, stake: bigint, minStake: bigint) {
    super(
      "STAKE_BELOW_MINIMUM",
      `stake ${stake} is below the minimum ${minStake} (USDG base units): deposit ${minStake - stake} more with stake:deposit first`,
      { agent, stake, minStake },
    );
  }
}

export class InsufficientBalanceError extends AgentError {
  override readonly name = "InsufficientBalanceError";
  constructor(what: string, have: bigint, need: bigint) {
    super("INSUFFICIENT_BALANCE", `${what} is ${have}, ${need} needed: fund the account or ask for less`, {
      have,
      need,
    });
  }
}

export class StakeLockedError extends AgentError {
  override readonly name = "StakeLockedError";
  constructor(remaining: bigint, minStake: bigint, openCalls: bigint) {
    super(
      "STAKE_LOCKED",
      `withdrawing would leave ${remaining} staked with ${openCalls} open call(s), below the minimum ${minStake}: settle or expire them first, or withdraw less`,
      { remaining, minStake, openCalls },
    );
  }
}

export class RevealTooEarlyError extends AgentError {
  override readonly name = "RevealTooEarlyError";
  constructor(callId: bigint, committedBlock: number | undefined, committedAt: number) {
    super(
      "REVEAL_TOO_EARLY",
      `reveal in a later block than the commit (committed in block ${committedBlock ?? "?"} at ${committedAt}): wait for the next block`,
      { callId, committedBlock, committedAt },
    );
  }
}

export class RevealTimedOutError extends AgentError {
  override readonly name = "RevealTimedOutError";
  constructor(callId: bigint, deadline: number) {
    super(
      "REVEAL_TIMED_OUT",
      `the reveal deadline ${new Date(deadline * 1000).toISOString()} has passed: the call can only be expired now (call:expire), and counts as a miss`,
      { callId, deadline },
    );
  }
}

export class NotExpirableYetError extends AgentError {
  override readonly name = "NotExpirableYetError";
  constructor(callId: bigint, deadline: number) {
    super(
      "NOT_EXPIRABLE_YET",
      `call can still be revealed until ${new Date(deadline * 1000).toISOString()}: expire it after that`,
      { callId, deadline },
    );
  }
}

export class NotClosedError extends AgentError {
  override readonly name = "NotClosedError";
  constructor(callId: bigint, closesAt: number) {
    super("NOT_CLOSED", `call closes at ${new Date(closesAt * 1000).toISOString()}: settle it after that`, {
      callId,
      closesAt,
    });
  }
}

export class WrongCallStatusError extends AgentError {
  override readonly name = "WrongCallStatusError";
  constructor(callId: bigint, status: string, wanted: string) {
    super("WRONG_CALL_STATUS", `call ${callId} is ${status}, not ${wanted}: check it with call:status`, {
      callId,
      status,
      wanted,
    });
  }
}

export class UnknownCallError extends AgentError {
  override readonly name = "UnknownCallError";
  constructor(callId: bigint) {
    super(
      "UNKNOWN_CALL",
      `no call ${callId} on this ledger: check the id (call:status lists the vault's calls)`,
      {
        callId,
      },
    );
  }
}

export class NotCallAgentError extends AgentError {
  override readonly name = "NotCallAgentError";
  constructor(callId: bigint, agent: string, caller: string) {
    super(
      "NOT_CALL_AGENT",
      `call ${callId} belongs to ${agent}, not ${caller}: reveal with the agent's key (AGENT_PRIVATE_KEY)`,
      { callId, agent, caller },
    );
  }
}

export class SaltNotFoundError extends AgentError {
  override readonly name = "SaltNotFoundError";
  constructor(key: string, vaultPath: string) {
    super(
      "SALT_NOT_FOUND",
      `no salt for ${key} in the vault ${vaultPath}: point --vault at the file the commit wrote`,
      { key, vaultPath },
    );
  }
}

export class VaultPassphraseError extends AgentError {
  override readonly name = "VaultPassphraseError";
  constructor(vaultPath: string, problem: string) {
    super("VAULT_PASSPHRASE", `vault ${vaultPath}: ${problem}`, { vaultPath });
  }
}

export class VaultCorruptError extends AgentError {
  override readonly name = "VaultCorruptError";
  constructor(vaultPath: string, problem: string) {
    super(
      "VAULT_CORRUPT",
      `vault ${vaultPath} cannot be read (${problem}): restore it from a backup; never delete it while calls are open`,
      { vaultPath },
    );
  }
}

export class VaultEntryExistsError extends AgentError {
  override readonly name = "VaultEntryExistsError";
  constructor(vaultPath: string, commitment: string) {
    super(
      "VAULT_ENTRY_EXISTS",
      `commitment ${commitment} is already in the vault ${vaultPath}: a salt is never overwritten; commit with a fresh salt`,
      { vaultPath, commitment },
    );
  }
}

export class CommitmentMismatchError extends AgentError {
  override readonly name = "CommitmentMismatchError";
  constructor(callId: bigint, committed: string, revealed: string) {
    super(
      "COMMITMENT_MISMATCH",
      `the vault's terms do not hash to call ${callId}'s commitment: the vault entry belongs to another call or chain`,
      { callId, committed, revealed },
    );
  }
}

export class NoPriceError extends AgentError {
  override readonly name = "NoPriceError";
  constructor(asset: string, reason: string) {
    super(
      "NO_PRICE",
      `the oracle has no price for ${asset} now (${reason}): ask the oracle admin, or retry later`,
      {
        asset,
        reason,
      },
    );
  }
}
