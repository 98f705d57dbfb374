import { ethers } from "hardhat";
import { time } from "@nomicfoundation/hardhat-network-helpers";
import type { IERC20 } from "../../typechain-types";
import { MockStockToken__factory } from "../../typechain-types";
import { deployUniswap } from "./uniswap";
import { installMulticall3 } from "./multicall";
import { deployTokens } from "./tokens";
import { openPool, type PoolSettings } from "./pools";
import { tradeHistory, type HistorySettings } from "./trades";
import { createReplica, readPoolEvent } from "./session";
import { DEFAULT_STOCKS, type StockSpec } from "./stocks";
import type { PoolEvent } from "./history";
import type { Replica, ReplicaStock } from "./types";

export interface BuildOptions extends Omit<PoolSettings, "liquidityUsdg">, HistorySettings {
  stocks: readonly StockSpec[];
  /** USDG's decimals: 6 (MockUSDG) by default; sources disagree between 6 and 18, so both are built. */
  usdgDecimals: number;
  /** USDG on each side of each pool's full-range position, in whole USDG. */
  liquidityUsdg: bigint;
}

export const DEFAULT_BUILD: BuildOptions = {
  stocks: DEFAULT_STOCKS,
  usdgDecimals: 6,
  observationCardinality: 720,
  liquidityUsdg: 5_000_000n,
  hours: 48,
  seed: 4663,
};

/**
 * Builds the replica of Robinhood Chain's trading surface on the current network (the in-process
 * Hardhat network under `loadFixture`, or a `hardhat node` via `--network localhost`): USDG, the
 * stock tokens, Uniswap v3 from its official artifacts, one seeded pool per stock and an hourly
 * trading history, and Multicall3 at its canonical address. Signers: #0 deploys and provides liquidity, #1 trades.
 */
export async function buildReplica(options: Partial<BuildOptions> = {}): Promise<Replica> {
  const settings: BuildOptions = { ...DEFAULT_BUILD, ...options };
  const started = performance.now();
  const [deployer, trader] = await ethers.getSigners();
  if (!deployer || !trader) throw new Error("the replica needs two signers (deployer, trader)");

  const { factory, router, positionManager } = await deployUniswap(deployer);
  await installMulticall3();
  const {
    usdg,
    stocks: tokens,
    stockFactory,
  } = await deployTokens(deployer, settings.stocks, settings.usdgDecimals);
  const usdgDecimals = Number(await usdg.decimals());
  const pools = { ...settings, liquidityUsdg: settings.liquidityUsdg * 10n ** BigInt(usdgDecimals) };

  const stocks: ReplicaStock[] = [];
  const events = new Map<string, PoolEvent[]>();
  for (const [i, spec] of settings.stocks.entries()) {
    const opened = await openPool(deployer, { factory, positionManager, usdg }, tokens[i]!, spec, pools);
    stocks.push(opened.stock);
    const { blockNumber, blockHash } = opened.initialized;
    events.set(opened.stock.poolAddress, [
      await readPoolEvent(opened.stock, "init", blockNumber, blockHash, deployer.provider),
    ]);
  }

  // Minting is how the replica makes money: USDG mints for anyone, stock tokens for their owner.
  const funder = async (token: IERC20, account: string, amount: bigint): Promise<void> => {
    const address = await token.getAddress();
    if (address === (await usdg.getAddress())) {
      await (await usdg.mint(account, amount)).wait();
    } else {
      await (await MockStockToken__factory.connect(address, deployer).mint(account, amount)).wait();
    }
  };

  const replica = createReplica(
    {
      mode: "replica",
      chainId: Number((await ethers.provider.getNetwork()).chainId),
      usdg,
      usdgDecimals,
      stocks,
      factory,
      stockFactory,
      router,
      positionManager,
      deployer,
      trader,
      buildMs: 0,
      builtAt: 0,
    },
    events,
    funder,
  );
  // One large balance up front, so the history's swaps do not each mint what they pay.
  await replica.fund(trader.address, "USDG", pools.liquidityUsdg);
  for (const s of stocks) await replica.fund(trader.address, s, 10n ** 6n * 10n ** BigInt(s.decimals));
  await tradeHistory(replica, settings);
  replica.builtAt = await time.latest();
  replica.buildMs = Math.round(performance.now() - started);
  return replica;
}
