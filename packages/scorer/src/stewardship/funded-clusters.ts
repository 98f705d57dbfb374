import { STEWARDSHIP_V1, type StewardshipConstants } from "./constants";
import { chainOrder, type FundingTransfer, type PoolSwap, type TokenTransfer } from "./chain-data";

/** Takers funded from one source, and their combined trading over the window. */
export interface FundedCluster {
  readonly source: string;
  readonly takers: readonly string[];
  readonly bought: bigint;
  readonly sold: bigint;
  readonly swaps: readonly PoolSwap[];
}

/**
 * An address's funding source is the sender of the first plain transfer of anything it received:
 * the token, native ETH or another ERC-20 such as USDG (`funding`), not from a pool, not from an
 * excluded address, and not of nothing (anyone can send a zero transfer to anyone, which would
 * let them pose as a stranger's funder). The data must reach back before the window: funding
 * usually happens long before the trading it enables. Both lists are taken in chain order.
 */
export function fundingSources(
  transfers: readonly TokenTransfer[],
  skip: ReadonlySet<string>,
  funding: readonly FundingTransfer[] = [],
): Map<string, string> {
  const source = new Map<string, string>();
  const received = funding.length === 0 ? transfers : [...transfers, ...funding].sort(chainOrder);
  for (const t of received) {
    if (t.amount === 0n || skip.has(t.from) || skip.has(t.to) || t.from === t.to || source.has(t.to))
      continue;
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
