import { STEWARDSHIP_V1, type StewardshipConstants } from "./constants";
import type { PoolSwap, TokenTransfer } from "./chain-data";

/** A buy whose tokens reached another address by plain transfers and were sold from there. */
export interface IntermediaryTrade {
  readonly buy: PoolSwap;
  /** Buyer, intermediaries and seller, in the order the tokens travelled. */
  readonly path: readonly string[];
  readonly sells: readonly PoolSwap[];
}

/**
 * Criterion (a), self-trading through an intermediary: a buy by X; tokens move X → … → Y by at
 * most 3 plain transfers (never through a pool or an excluded address), each no earlier than the
 * one before; Y ≠ X sells to a pool after receiving them; all within 24 h of the buy. Inputs in
 * chain order.
 */
export function intermediaryTrades(
  swaps: readonly PoolSwap[],
  transfers: readonly TokenTransfer[],
  skip: ReadonlySet<string>,
  rules: StewardshipConstants = STEWARDSHIP_V1,
): IntermediaryTrade[] {
  const outgoing = new Map<string, TokenTransfer[]>();
  for (const t of transfers) {
    if (skip.has(t.from) || skip.has(t.to) || t.from === t.to || t.amount === 0n) continue;
    if (!outgoing.has(t.from)) outgoing.set(t.from, []);
    outgoing.get(t.from)!.push(t);
  }
  const sellsBy = new Map<string, PoolSwap[]>();
  for (const s of swaps) {
    if (s.side !== "sell") continue;
    if (!sellsBy.has(s.taker)) sellsBy.set(s.taker, []);
    sellsBy.get(s.taker)!.push(s);
  }
  const found: IntermediaryTrade[] = [];
  for (const buy of swaps) {
    if (buy.side !== "buy" || skip.has(buy.taker)) continue;
    const deadline = buy.time + rules.intermediarySeconds;
    // Breadth-first over (address, arrival time, path); the first arrival at an address wins.
    let frontier = [{ at: buy.taker, since: buy.time, path: [buy.taker] }];
    const seen = new Set([buy.taker]);
    const sells: PoolSwap[] = [];
    const paths: string[][] = [];
    for (let hop = 0; hop < rules.intermediaryMaxHops && frontier.length > 0; hop++) {
      const next: typeof frontier = [];
      for (const node of frontier) {
        for (const t of outgoing.get(node.at) ?? []) {
          if (t.time < node.since || t.time > deadline || seen.has(t.to)) continue;
          seen.add(t.to);
          const path = [...node.path, t.to];
          next.push({ at: t.to, since: t.time, path });
          const sold = (sellsBy.get(t.to) ?? []).filter((s) => s.time >= t.time && s.time <= deadline);
          if (sold.length > 0) {
            sells.push(...sold);
            paths.push(path);
          }
        }
      }
      frontier = next;
    }
    for (const path of paths) {
      found.push({ buy, path, sells: sells.filter((s) => s.taker === path[path.length - 1]) });
    }
  }
  return found;
}
