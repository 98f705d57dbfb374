import { integerOption, type Env } from "../config/env";

/**
 * Calls one settler pass resolves at most. Each is one transaction mined before the next (the
 * account's one open nonce), so the bound keeps a pass short; the longest-due go first and the
 * rest wait for the next pass.
 */
export const SETTLE_MAX_PER_PASS = 50;

export const SETTLER_OPTIONS = { "settle-max": { type: "string" } } as const;

export const SETTLER_HELP = `Settler (on when --ledger is set with the keeper's flags):
  --settle-max <n>       calls settled or expired per pass at most, longest-due first
                         (env AUGUR_SETTLE_MAX; default ${SETTLE_MAX_PER_PASS}); the rest next pass`;

/** `--settle-max` / AUGUR_SETTLE_MAX, 1 to 10,000. */
export function settleMaxOption(flags: { readonly "settle-max"?: string }, env: Env): number {
  return integerOption(
    "--settle-max",
    flags["settle-max"] ?? env.AUGUR_SETTLE_MAX,
    SETTLE_MAX_PER_PASS,
    1,
    10_000,
  );
}
