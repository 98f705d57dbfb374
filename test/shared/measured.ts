import { ethers } from "hardhat";
import { ContractFactory } from "ethers";
import QuoterV2Artifact from "@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json";
import type { MeasureSource, Store } from "@augur/engine";
import { seasonStore } from "@augur/engine/test-support";
import type { PriceOracle } from "../../typechain-types";
import { replicaOnce, type Replica } from "./replica";

/** The PriceOracle's TWAP window in the measured-replica fixtures, seconds. */
export const WINDOW = 300;

/**
 * The replica with a PriceOracle priced from every stock's pool and Uniswap's own QuoterV2
 * bytecode (WETH9 unused: ERC-20 pairs only), which answers "what would selling fetch".
 */
export async function withOracle(replica: Replica) {
  const oracle = (await (
    await ethers.getContractFactory("PriceOracle")
  ).deploy(await replica.usdg.getAddress(), WINDOW, replica.deployer.address)) as unknown as PriceOracle;
  for (const stock of replica.stocks) await oracle.setPool(stock.address, stock.poolAddress);
  const quoter = await new ContractFactory(
    QuoterV2Artifact.abi,
    QuoterV2Artifact.bytecode,
    replica.deployer,
  ).deploy(await replica.factory.getAddress(), await replica.usdg.getAddress());
  return { replica, oracle, quoter: await quoter.getAddress() };
}

/** For `loadFixture`: the run's replica with its oracle and quoter (measure and re-measure tests). */
export async function measuredReplica() {
  return withOracle(await replicaOnce());
}

/** What the engine measures with, read straight from the replica and the oracle. */
export function sourceOf(replica: Replica, oracle: PriceOracle): MeasureSource {
  return {
    listing: async () => ({
      usdg: (await replica.usdg.getAddress()).toLowerCase(),
      stocks: replica.stocks.map((s) => ({
        token: s.address.toLowerCase(),
        pool: s.poolAddress.toLowerCase(),
      })),
    }),
    priceAt: async (asset, at) => ({ price18: await oracle.priceAt(asset, at) }),
  };
}

/** An in-memory engine store holding season `s1`, measured, for 28 days from `startsAt`. */
export function measuredSeasonStore(startsAt: number): Promise<Store> {
  return seasonStore({ startsAt, name: "Season s1", createdAt: startsAt - 86_400, inputs: "measured" });
}
