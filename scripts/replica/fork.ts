import { JsonRpcProvider, ZeroAddress, parseEther } from "ethers";
import { ethers, network } from "hardhat";
import { time } from "@nomicfoundation/hardhat-network-helpers";
import robinhood from "../../config/robinhood.json";
import {
  IERC20__factory,
  IUniswapV3Factory__factory,
  IUniswapV3Pool__factory,
  MockStockToken__factory,
  MockUSDG__factory,
  type IERC20,
} from "../../typechain-types";
import { canonicalPoolAddress, deployPeriphery } from "./uniswap";
import { createReplica, readPoolEvent } from "./session";
import type { PoolEvent } from "./history";
import type { Replica, ReplicaStock } from "./types";

interface ChainEntry {
  name: string;
  usdg: string;
  weth: string;
  uniswapV3Factory: string;
  stocks: { symbol: string; address: string; fee: number }[];
}

/** The chain a fork was taken from: FORK_CHAIN_ID if given, else asked of FORK_URL. */
async function forkedChainId(forkUrl: string): Promise<number> {
  if (process.env.FORK_CHAIN_ID) return Number(process.env.FORK_CHAIN_ID);
  const remote = new JsonRpcProvider(forkUrl);
  try {
    return Number(await remote.send("eth_chainId", []));
  } finally {
    remote.destroy();
  }
}

/** The config entry of `chainId`, refusing loudly when an address it needs is not filled in yet. */
export function chainEntry(chainId: number): ChainEntry {
  const entry = (robinhood.chains as Record<string, ChainEntry | undefined>)[String(chainId)];
  if (!entry) throw new Error(`config/robinhood.json has no entry for chain ${chainId}`);
  const missing = [
    ...(entry.usdg ? [] : ["usdg"]),
    ...(entry.uniswapV3Factory ? [] : ["uniswapV3Factory"]),
    ...(entry.stocks.length > 0 ? [] : ["stocks"]),
  ];
  if (missing.length > 0) {
    throw new Error(
      `config/robinhood.json: chain ${chainId} (${entry.name}) lacks ${missing.join(", ")}; ` +
        "fill them from the official docs to run the replica tests on a fork",
    );
  }
  return entry;
}

/**
 * The same surface as the replica, found on a fork of Robinhood Chain: the real USDG, stock tokens
 * and pools from `config/robinhood.json`, with Uniswap's official SwapRouter and position manager
 * deployed on the fork against the real factory (the tests need a router whose ABI they know).
 * Balances are borrowed from the pools themselves (impersonated): every ERC-20 in a pool is held by
 * it, whatever the token's storage layout. Only a small share is taken, so prices are untouched.
 */
export async function attachFork(forkUrl: string): Promise<Replica> {
  const started = performance.now();
  const chainId = await forkedChainId(forkUrl);
  const entry = chainEntry(chainId);
  const [deployer, trader] = await ethers.getSigners();
  if (!deployer || !trader) throw new Error("the replica needs two signers (deployer, trader)");

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
  const latest = await ethers.provider.getBlock("latest");
  if (latest === null) throw new Error("fork has no latest block");
  for (const listed of entry.stocks) {
    const poolAddress = await factory.getPool(entry.usdg, listed.address, listed.fee);
    if (poolAddress === ZeroAddress) {
      throw new Error(`no ${listed.symbol}/USDG pool with fee ${listed.fee} on chain ${chainId}`);
    }
    if (
      poolAddress.toLowerCase() !==
      canonicalPoolAddress(entry.uniswapV3Factory, entry.usdg, listed.address, listed.fee).toLowerCase()
    ) {
      throw new Error(
        `${listed.symbol}: the factory's pools are not Uniswap's canonical bytecode; SwapRouter cannot trade them`,
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
