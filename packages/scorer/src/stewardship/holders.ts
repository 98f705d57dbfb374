import { STEWARDSHIP_V1, type StewardshipConstants } from "./constants";
import type { StewardshipConfig, TokenTransfer } from "./chain-data";

/** Balances after replaying transfers on top of `start` (mints debit the zero address; harmless). */
export function applyTransfers(
  start: ReadonlyMap<string, bigint>,
  transfers: readonly TokenTransfer[],
): Map<string, bigint> {
  const balances = new Map(start);
  for (const t of transfers) {
    balances.set(t.from, (balances.get(t.from) ?? 0n) - t.amount);
    balances.set(t.to, (balances.get(t.to) ?? 0n) + t.amount);
  }
  return balances;
}

/** Addresses that never count as holders or organic takers: excluded wallets, burns, pools. */
export function notCounted(
  config: StewardshipConfig,
  rules: StewardshipConstants = STEWARDSHIP_V1,
): Set<string> {
  return new Set([...config.excluded, ...config.pools, ...rules.burnAddresses]);
}

/** The dust line in base units: 1,000,000 whole tokens × 10^decimals. */
export function dustUnits(config: StewardshipConfig, rules: StewardshipConstants = STEWARDSHIP_V1): bigint {
  return rules.dustWholeTokens * 10n ** BigInt(config.decimals);
}

/** Distinct holders: non-excluded, non-dust addresses (pools are not holders). */
export function distinctHolders(
  balances: ReadonlyMap<string, bigint>,
  config: StewardshipConfig,
  rules: StewardshipConstants = STEWARDSHIP_V1,
): number {
  const skip = notCounted(config, rules);
  const dust = dustUnits(config, rules);
  let holders = 0;
  for (const [owner, balance] of balances) if (balance >= dust && !skip.has(owner)) holders++;
  return holders;
}
