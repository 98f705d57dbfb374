import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import { buildReplica } from "../../scripts/replica/build";
import { attachForkWithHistory } from "../../scripts/replica/fork";
import type { Replica } from "../../scripts/replica/types";

export { buildReplica, DEFAULT_BUILD, type BuildOptions } from "../../scripts/replica/build";
export type {
  Replica,
  ReplicaStock,
  Side,
  SwapResult,
  SwapOptions,
  StockRef,
} from "../../scripts/replica/types";
export type { PoolEvent } from "../../scripts/replica/history";
export { tickCumulativeDelta, tickAt, twapTick } from "../../scripts/replica/history";
export {
  priceFromSqrtPriceX96,
  sqrtPriceX96FromPrice,
  approxPriceAtTick,
  PRICE_ONE,
} from "../../scripts/replica/math";

const forkUrl = process.env.FORK_URL;

/**
 * Robinhood Chain's trading surface, for `loadFixture(deployReplica)`. Without FORK_URL: the local
 * replica (USDG, three stock tokens with USDG pools in both token orders, Uniswap v3 from the
 * official artifacts, 48 simulated hours of trading). With FORK_URL: the real tokens and pools of
 * the forked chain, from `config/robinhood.json` (or ROBINHOOD_CONFIG), behind the same interface,
 * with the trader funded from the pools and a few hours of hourly trading added.
 */
export async function deployReplica(): Promise<Replica> {
  return forkUrl ? attachForkWithHistory(forkUrl) : buildReplica();
}

/**
 * The replica for a fixture to build on: built once per test run (`loadFixture(deployReplica)`),
 * then every fixture starts from its snapshot instead of trading its 48 hours again.
 */
export async function replicaOnce(): Promise<Replica> {
  const replica = await loadFixture(deployReplica);
  // The chain's clock ran on since the snapshot: the next block comes right after the build, as
  // with a build of the fixture's own, so TWAP windows and buffer searches see the same history.
  await time.setNextBlockTimestamp(replica.builtAt + 1);
  return replica;
}

let announced = false;

/** Says once per test run, in one line, which surface the tests run on when it is not a fork. */
export function announceReplicaMode(): void {
  if (forkUrl || announced) return;
  announced = true;
  console.log(
    "      fork mode skipped: FORK_URL is not set, so these tests ran on the local replica " +
      "(set FORK_URL, optionally FORK_BLOCK, to run them on Robinhood Chain's real pools)",
  );
}
