import { time } from "@nomicfoundation/hardhat-network-helpers";
import { PRICE_ONE } from "./math";
import type { Replica } from "./types";

export interface HistorySettings {
  /** Simulated hours of trading; each stock trades once in each hour. */
  hours: number;
  /** Seed of the pseudo-random sizes, directions and minutes (the history is reproducible). */
  seed: number;
}

/** mulberry32: a tiny, well-mixed 32-bit PRNG; fast-check is not needed for one fixed history. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Trades every pool once an hour for `hours` simulated hours, at a random minute inside its own
 * third of the hour (so stocks never share a block and timestamps strictly increase), with sizes
 * between 1,000 and 40,000 USDG. Directions lean against the drift from the opening price, like a
 * market with two-sided flow, so prices wander a few percent instead of trending away.
 */
export async function tradeHistory(replica: Replica, settings: HistorySettings): Promise<void> {
  const random = prng(settings.seed);
  const start = (await time.latest()) + 60;
  const opening = new Map<string, bigint>();
  for (const s of replica.stocks) opening.set(s.symbol, await replica.priceUsdgPerShare(s));
  const slot = Math.floor(3600 / replica.stocks.length);

  for (let hour = 0; hour < settings.hours; hour++) {
    for (const [i, s] of replica.stocks.entries()) {
      const at = start + hour * 3600 + i * slot + 1 + Math.floor(random() * (slot - 2));
      const price = await replica.priceUsdgPerShare(s);
      const drift = Number((price * 1_000_000n) / opening.get(s.symbol)!) / 1_000_000 - 1;
      const buy = random() < Math.min(0.9, Math.max(0.1, 0.5 - 5 * drift));
      const usdgAmount = BigInt(Math.round(1_000 + random() * 39_000)) * 10n ** BigInt(replica.usdgDecimals);
      const amountIn = buy
        ? usdgAmount
        : (usdgAmount * 10n ** BigInt(s.decimals) * PRICE_ONE) /
          (price * 10n ** BigInt(replica.usdgDecimals));
      await replica.swap(s, buy ? "buy" : "sell", amountIn, { at });
    }
  }
}
