import { ZeroAddress, parseEther } from "ethers";
import { ethers, network } from "hardhat";
import { mine, time } from "@nomicfoundation/hardhat-network-helpers";
import {
  IERC20__factory,
  IUniswapV3Factory__factory,
  IUniswapV3Pool__factory,
  MockStockToken__factory,
  MockUSDG__factory,
  type IERC20,
} from "../../typechain-types";
import { POOL_INIT_CODE_HASH, canonicalPoolAddress, deployPeriphery } from "./uniswap";
import { createReplica, readPoolEvent } from "./session";
import type { ChainEntry } from "./chains";
import type { PoolEvent } from "./history";
import type { Replica, ReplicaStock } from "./types";

/**
 * The same surface as the replica, found at the addresses of `entry` (on a fork of Robinhood Chain:
 * the real USDG, stock tokens and pools from `config/robinhood.json`), with Uniswap's official SwapRouter and position manager
 * deployed on the fork against the real factory (the tests need a router whose ABI they know).
 * Balances are borrowed from the pools themselves (impersonated): every ERC-20 in a pool is held by
 * it, whatever the token's storage layout. Only a small share is taken, so prices are untouched.
 */
export async function attachSurface(entry: ChainEntry, chainId: number): Promise<Replica> {
  const started = performance.now();
  const [deployer, trader] = await ethers.getSigners();
  if (!deployer || !trader) throw new Error("the replica needs two signers (deployer, trader)");

  // The chain's pools must be the bytecode Uniswap's periphery was built for, or no router finds them.
  const initCodeHash = (entry.poolInitCodeHash || POOL_INIT_CODE_HASH).toLowerCase();
  if (initCodeHash !== POOL_INIT_CODE_HASH) {
    throw new Error(
      `chain ${chainId}: pool init code hash ${initCodeHash} is not Uniswap v3's ${POOL_INIT_CODE_HASH}; SwapRouter cannot trade its pools`,
    );
  }
  const factory = IUniswapV3Factory__factory.connect(entry.uniswapV3Factory, deployer);
  const { router, positionManager } = await deployPeriphery(
    deployer,
    entry.uniswapV3Factory,
    entry.weth || ZeroAddress,
  );
  const usdg = MockUSDG__factory.connect(entry.usdg, deployer);
  const usdgDecimals = Number(await usdg.decimals());

  const stocks: ReplicaStock[] = [];
  const events = new Map<string, PoolEvent[]>();
  // Read the pools at a block mined here: Hardhat runs calls at the fork block itself (or older)
  // with the remote chain's hardfork history, which it does not know for Robinhood Chain's ids.
  await mine(1);
  const latest = await ethers.provider.getBlock("latest");
  if (latest === null) throw new Error("fork has no latest block");
  for (const listed of entry.stocks) {
    const poolAddress = await factory.getPool(entry.usdg, listed.address, listed.fee);
    if (poolAddress === ZeroAddress) {
      throw new Error(`no ${listed.symbol}/USDG pool with fee ${listed.fee} on chain ${chainId}`);
    }
    const expected = canonicalPoolAddress(
      entry.uniswapV3Factory,
      entry.usdg,
      listed.address,
      listed.fee,
      initCodeHash,
    );
    if (poolAddress.toLowerCase() !== expected.toLowerCase()) {
      throw new Error(
        `${listed.symbol}: the factory's pool ${poolAddress} is not at ${expected} (CREATE2 with init code hash ${initCodeHash}); SwapRouter cannot trade it`,
      );
    }
    const pool = IUniswapV3Pool__factory.connect(poolAddress, deployer);
    const token = MockStockToken__factory.connect(listed.address, deployer);
    const [token0, tickSpacing, decimals] = await Promise.all([
      pool.token0(),
      pool.tickSpacing(),
      token.decimals(),
    ]);
    const usdgIsToken0 = token0.toLowerCase() === entry.usdg.toLowerCase();
    const stock: ReplicaStock = {
      symbol: listed.symbol,
      token,
      address: listed.address,
      pool,
      poolAddress,
      fee: listed.fee,
      tickSpacing: Number(tickSpacing),
      usdgIsToken0,
      decimals: Number(decimals),
      shape: { usdgIsToken0, usdgDecimals, stockDecimals: Number(decimals) },
    };
    stocks.push(stock);
    events.set(poolAddress, [
      await readPoolEvent(stock, "attach", latest.number, latest.hash!, ethers.provider),
    ]);
  }

  const funder = async (token: IERC20, account: string, amount: bigint): Promise<void> => {
    const address = (await token.getAddress()).toLowerCase();
    const holders = stocks.filter(
      (s) => s.address.toLowerCase() === address || address === entry.usdg.toLowerCase(),
    );
    for (const s of holders) {
      if ((await token.balanceOf(s.poolAddress)) / 20n < amount) continue; // take at most 5 %
      await network.provider.send("hardhat_impersonateAccount", [s.poolAddress]);
      await network.provider.send("hardhat_setBalance", [s.poolAddress, `0x${parseEther("1").toString(16)}`]);
      const pool = await ethers.getSigner(s.poolAddress);
      await (await IERC20__factory.connect(address, pool).transfer(account, amount)).wait();
      await network.provider.send("hardhat_stopImpersonatingAccount", [s.poolAddress]);
      return;
    }
    throw new Error(`no pool holds 20x the ${amount} raw units of ${address} asked for`);
  };

  return createReplica(
    {
      mode: "fork",
      chainId,
      usdg,
      usdgDecimals,
      stocks,
      factory,
      stockFactory: entry.stockFactory ?? "",
      router,
      positionManager,
      deployer,
      trader,
      buildMs: Math.round(performance.now() - started),
      builtAt: await time.latest(),
    },
    events,
    funder,
  );
}
