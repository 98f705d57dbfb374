import { STEWARDSHIP_V1, type StewardshipConstants } from "./constants";
import { type PoolSwap, swapId } from "./chain-data";

/** One taker's round trips: buys with ≥ 80 % of their tokens sold back to a pool within 24 h. */
export interface RoundTrips {
  readonly taker: string;
  readonly buys: number;
  readonly roundTrips: readonly { buy: PoolSwap; returned: bigint; sells: PoolSwap[] }[];
}

/**
 * Criterion (b), per taker: each sell is matched to the taker's still-open buys of the last 24 h,
 * newest first (last in, first out: what was just bought is what goes back); a buy whose matched
 * sells reach 80 % of its tokens is a round trip. Takers with 3 or more are returned. `swaps`
 * must be in chain order.
 */
export function roundTripTakers(
  swaps: readonly PoolSwap[],
  skip: ReadonlySet<string>,
  rules: StewardshipConstants = STEWARDSHIP_V1,
): RoundTrips[] {
  const byTaker = new Map<string, PoolSwap[]>();
  for (const s of swaps) {
    if (skip.has(s.taker)) continue;
    if (!byTaker.has(s.taker)) byTaker.set(s.taker, []);
    byTaker.get(s.taker)!.push(s);
  }
  const flagged: RoundTrips[] = [];
  for (const [taker, own] of byTaker) {
    const buys: { buy: PoolSwap; open: bigint; returned: bigint; sells: PoolSwap[] }[] = [];
    let first = 0; // oldest buy still inside 24 h of the current sell
    for (const s of own) {
      if (s.side === "buy") {
        buys.push({ buy: s, open: s.tokens, returned: 0n, sells: [] });
        continue;
      }
      while (first < buys.length && buys[first]!.buy.time < s.time - rules.roundTripSeconds) first++;
      let left = s.tokens;
      for (let i = buys.length - 1; i >= first && left > 0n; i--) {
        const b = buys[i]!;
        const take = b.open < left ? b.open : left;
        if (take === 0n) continue;
        b.open -= take;
        b.returned += take;
        b.sells.push(s);
        left -= take;
      }
    }
    const trips = buys
      .filter((b) => b.returned * 10_000n >= rules.roundTripShareBps * b.buy.tokens)
      .map(({ buy, returned, sells }) => ({ buy, returned, sells }));
    if (trips.length >= rules.roundTripMinCount)
      flagged.push({ taker, buys: buys.length, roundTrips: trips });
  }
  return flagged;
}

/** The swaps a taker's round trips consist of (buys and their matched sells), deduplicated. */
export function roundTripSwapIds(trips: RoundTrips): string[] {
  return [...new Set(trips.roundTrips.flatMap((t) => [t.buy, ...t.sells]).map(swapId))];
}
