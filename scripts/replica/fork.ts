import { time } from "@nomicfoundation/hardhat-network-helpers";
import { attachSurface } from "./attach";
import { chainEntry, forkedChainId } from "./chains";
import { tradeHistory } from "./trades";
import type { Replica } from "./types";

/** Robinhood Chain's real trading surface on a fork of `forkUrl`, behind the replica's interface. */
export async function attachFork(forkUrl: string): Promise<Replica> {
  const chainId = await forkedChainId(forkUrl);
  return attachSurface(chainEntry(chainId), chainId);
}

/** Hours of hourly trading the tests add on a fork, so they read a history they recorded themselves. */
export const FORK_HISTORY_HOURS = 8;

/**
 * The fork as the tests use it: attached, the trader holding 4 % of each pool's USDG and shares
 * (borrowed from the pools) with the router approved, then `hours` of hourly trading on every pool,
 * as the replica's build does. The fixture's snapshot then holds balances, approvals and a history,
 * so a test's own swaps mine no funding transaction between the timestamps it chose.
 */
export async function attachForkWithHistory(forkUrl: string, hours = FORK_HISTORY_HOURS): Promise<Replica> {
  const started = performance.now();
  const replica = await attachFork(forkUrl);
  const trader = replica.trader.address;
  for (const s of replica.stocks) {
    await replica.fund(trader, "USDG", (await replica.usdg.balanceOf(s.poolAddress)) / 25n);
    await replica.fund(trader, s, (await s.token.balanceOf(s.poolAddress)) / 25n);
  }
  await tradeHistory(replica, { hours, seed: replica.chainId });
  replica.builtAt = await time.latest();
  replica.buildMs = Math.round(performance.now() - started);
  return replica;
}
