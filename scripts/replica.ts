/**
 * Builds the replica of Robinhood Chain's trading surface on a running node and records where
 * everything is:
 *
 *   npx hardhat node                                          # one shell
 *   npx hardhat run scripts/replica.ts --network localhost    # another
 *
 * Writes `.data/replica-<chainId>.json` (or REPLICA_OUT) and prints the same JSON. REPLICA_HOURS
 * sets the hours of trading history (48 by default, as in the fixture). The deployment
 * code is the fixture's (`scripts/replica/build.ts`), so the node holds exactly what tests see.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { network } from "hardhat";
import { buildReplica } from "./replica/build";
import type { Replica } from "./replica/types";

async function describeReplica(replica: Replica) {
  return {
    network: network.name,
    chainId: replica.chainId,
    builtAt: replica.builtAt,
    buildMs: replica.buildMs,
    deployer: replica.deployer.address,
    trader: replica.trader.address,
    usdg: { address: await replica.usdg.getAddress(), decimals: replica.usdgDecimals },
    stockFactory: replica.stockFactory,
    uniswap: {
      factory: await replica.factory.getAddress(),
      swapRouter: await replica.router.getAddress(),
      positionManager: await replica.positionManager.getAddress(),
    },
    stocks: await Promise.all(
      replica.stocks.map(async (s) => ({
        symbol: s.symbol,
        address: s.address,
        decimals: s.decimals,
        pool: s.poolAddress,
        fee: s.fee,
        usdgIsToken0: s.usdgIsToken0,
        spotUsdgPerShare: (await replica.priceUsdgPerShare(s)).toString(),
        swaps: (await replica.history(s)).filter((e) => e.kind === "swap").length,
      })),
    ),
  };
}

async function main(): Promise<void> {
  if (network.name === "hardhat") {
    console.warn(
      "note: building on the in-process network, which ends with this command; use --network localhost",
    );
  }
  // REPLICA_HOURS: a shorter (or longer) history than the fixture's 48 h (the fork rehearsal's is short).
  const hours = process.env.REPLICA_HOURS;
  if (hours !== undefined && !/^[0-9]+$/.test(hours)) {
    throw new Error(`REPLICA_HOURS must be a whole number of hours, not '${hours}'`);
  }
  const replica = await buildReplica(hours === undefined ? {} : { hours: Number(hours) });
  const summary = await describeReplica(replica);
  const out = process.env.REPLICA_OUT ?? join(".data", `replica-${summary.chainId}.json`);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(summary, null, 2)}\n`);
  console.log(JSON.stringify(summary, null, 2));
  console.log(`replica built in ${replica.buildMs} ms; addresses written to ${out}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
