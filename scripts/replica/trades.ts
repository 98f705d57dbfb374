import { time } from "@nomicfoundation/hardhat-network-helpers";
// mulberry32, seeded: the history (and the demo's market) is the same on every run.
import { seededRandom } from "@augur/scorer/src/referee/synthetic-input";
import { PRICE_ONE } from "./math";
import type { Replica, ReplicaStock, SwapResult } from "./types";

export interface HistorySettings {
  /** Simulated hours of trading; each stock trades once in each hour. */
  hours: number;
  /** Seed of the pseudo-random sizes, directions and minutes (the history is reproducible). */
  seed: number;
}

/**
 * Trades every pool once an hour for `hours` simulated hours, at a random minute inside its own
 * third of the hour (so stocks never share a block and timestamps strictly increase), with sizes
 * between 1,000 and 40,000 USDG. Directions lean against the drift from the opening price, like a
 * market with two-sided flow, so prices wander a few percent instead of trending away.
 */
export async function tradeHistory(replica: Replica, settings: HistorySettings): Promise<void> {
  const random = seededRandom(settings.seed);
  const start = (await time.latest()) + 60;
  const opening = new Map<string, bigint>();
  for (const s of replica.stocks) opening.set(s.symbol, await replica.priceUsdgPerShare(s));
  const slot = Math.floor(3600 / replica.stocks.length);

  for (let hour = 0; hour < settings.hours; hour++) {
    for (const [i, s] of replica.stocks.entries()) {
      const at = start + hour * 3600 + i * slot + 1 + Math.floor(random() * (slot - 2));
      await marketTrade(replica, s, random, opening.get(s.symbol)!, at);
    }
  }
}

/**
 * One trade of the replica's trader, as the history makes them: a size between 1,000 and 40,000
 * USDG and a side that leans against the drift from `opening` (USDG per share, 18 decimals), drawn
 * from `random`; mined at `at` when given, else in the next block. `npm start` moves the stock
 * its demo agents call with it, once a simulated hour.
 */
export async function marketTrade(
  replica: Replica,
  s: ReplicaStock,
  random: () => number,
  opening: bigint,
  at?: number,
): Promise<SwapResult> {
  const price = await replica.priceUsdgPerShare(s);
  const drift = Number((price * 1_000_000n) / opening) / 1_000_000 - 1;
  const buy = random() < Math.min(0.9, Math.max(0.1, 0.5 - 5 * drift));
  const usdgAmount = BigInt(Math.round(1_000 + random() * 39_000)) * 10n ** BigInt(replica.usdgDecimals);
  const amountIn = buy
    ? usdgAmount
    : (usdgAmount * 10n ** BigInt(s.decimals) * PRICE_ONE) / (price * 10n ** BigInt(replica.usdgDecimals));
  return replica.swap(s, buy ? "buy" : "sell", amountIn, at === undefined ? {} : { at });
}
