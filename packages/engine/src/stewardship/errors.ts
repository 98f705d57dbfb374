import { AugurError } from "@augur/scorer";

/**
 * The store's stewardship days measured another token (or chain) than the one configured: the
 * series would silently mix two projects, so the step stops and says which.
 */
export class StewardshipScopeError extends AugurError {
  override readonly name = "StewardshipScopeError";
  constructor(storedToken: string, storedChain: number, token: string, chainId: number) {
    super(
      "STEWARDSHIP_SCOPE",
      `the store's stewardship days measure token ${storedToken} on chain ${storedChain}; ` +
        `the monitor is configured for ${token} on chain ${chainId}`,
      { storedToken, storedChain, token, chainId },
    );
  }
}
