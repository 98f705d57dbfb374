import { AugurError } from "@augur/scorer";

/** Bad keeper configuration: RPC URL, registry address, key, numbers out of range. */
export class KeeperConfigError extends AugurError {
  override readonly name = "KeeperConfigError";
  constructor(problem: string, details: Record<string, unknown> = {}) {
    super("KEEPER_CONFIG", problem, details);
  }
}

/**
 * The chain holds a history the local log does not extend (another root at a posted size, a head
 * beyond the log, or the registry refusing the consistency proof). Posting must stop: an operator
 * has to find out which side is wrong.
 */
export class KeeperDivergedError extends AugurError {
  override readonly name = "KeeperDivergedError";
  constructor(problem: string, details: Record<string, unknown> = {}) {
    super("KEEPER_DIVERGED", `local log and AnchorRegistry disagree: ${problem}`, details);
  }
}

/** The registry refuses the keeper's address (no KEEPER_ROLE). */
export class KeeperUnauthorizedError extends AugurError {
  override readonly name = "KeeperUnauthorizedError";
  constructor(sender: string) {
    super("KEEPER_UNAUTHORIZED", `${sender} does not hold KEEPER_ROLE on the registry`, { sender });
  }
}

/** The simulation of `post` reverted for a reason the keeper cannot act on. */
export class KeeperSimulationError extends AugurError {
  override readonly name = "KeeperSimulationError";
  constructor(treeSize: number, reason: string) {
    super("KEEPER_SIMULATION", `post of head ${treeSize} would revert: ${reason}`, { treeSize, reason });
  }
}

/**
 * The account's nonce does not match the journal: a nonce the keeper recorded was taken by a
 * transaction it never signed, or the chain is behind a nonce the journal holds as mined.
 */
export class KeeperNonceError extends AugurError {
  override readonly name = "KeeperNonceError";
  constructor(problem: string, details: Record<string, unknown> = {}) {
    super("KEEPER_NONCE", problem, details);
  }
}
