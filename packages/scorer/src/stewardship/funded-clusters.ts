import { STEWARDSHIP_V1, type StewardshipConstants } from "./constants";
import type { PoolSwap, TokenTransfer } from "./chain-data";

/** Takers funded from one source, and their combined trading over the window. */
export interface FundedCluster {
  readonly source: string;
  readonly takers: readonly string[];
  readonly bought: bigint;
  readonly sold: bigint;
  readonly swaps: readonly PoolSwap[];
}

/**
 * An address's funding source is the sender of the first plain transfer it received (not from a
 * pool, not from an excluded address) in the data given, which must be in chain order and reach
 * back before the window: funding usually happens long before the trading it enables.
 */
export function fundingSources(
  transfers: readonly TokenTransfer[],
  skip: ReadonlySet<string>,
): Map<string, string> {
  const source = new Map<string, string>();
  for (const t of transfers) {
    if (skip.has(t.from) || skip.has(t.to) || t.from === t.to || source.has(t.to)) continue;
    source.set(t.to, t.from);
  }
  return source;
}

/**
 * Criterion (c): two or more takers with the same funding source form a cluster (the source
 * joins it if it trades too); the cluster is flagged when its net position change over the window
 * |bought − sold| is under 20 % of its gross volume bought + sold (tokens, exact integers).
 */
export function fundedClusters(
  swaps: readonly PoolSwap[],
  source: ReadonlyMap<string, string>,
  skip: ReadonlySet<string>,
  rules: StewardshipConstants = STEWARDSHIP_V1,
): FundedCluster[] {
  const byTaker = new Map<string, PoolSwap[]>();
  const bySource = new Map<string, PoolSwap[]>();
  for (const s of swaps) {
    if (!byTaker.has(s.taker)) byTaker.set(s.taker, []);
    byTaker.get(s.taker)!.push(s);
    const from = source.get(s.taker);
    if (from === undefined || skip.has(s.taker)) continue;
    if (!bySource.has(from)) bySource.set(from, []);
    bySource.get(from)!.push(s);
  }
  const flagged: FundedCluster[] = [];
  for (const [from, funded] of bySource) {
    const own = skip.has(from) ? [] : (byTaker.get(from) ?? []);
    const all = [...funded, ...own];
    const takers = [...new Set(funded.map((s) => s.taker))];
    if (takers.length < 2) continue;
    let bought = 0n;
    let sold = 0n;
    for (const s of all) {
      if (s.side === "buy") bought += s.tokens;
      else sold += s.tokens;
    }
    const net = bought > sold ? bought - sold : sold - bought;
    const gross = bought + sold;
    if (net * 10_000n < rules.clusterNetOverGrossBps * gross) {
      flagged.push({ source: from, takers: takers.sort(), bought, sold, swaps: all });
    }
  }
  return flagged;
}
