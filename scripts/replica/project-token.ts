import { MockStockToken__factory, type IERC20 } from "../../typechain-types";
import { openPool } from "./pools";
import { createReplica } from "./session";
import type { Replica } from "./types";

export interface ProjectTokenSpec {
  symbol: string;
  name: string;
  /** Opening price, USDG per whole token (decimal string). */
  price: string;
  /** Uniswap v3 fee tier (500, 3000 or 10000). */
  fee: number;
  /** USDG placed on each side of the full-range position (raw units, at the decimals the token reports). */
  liquidityUsdg: bigint;
}

/**
 * Deploys a project token (an 18-decimal ERC-20 the deployer owns and mints: the stand-in for
 * the project's OAIA) and its Uniswap v3 pool against the replica's USDG, seeded with a
 * full-range position. Returns a replica whose only stock is that token, sharing the chain,
 * USDG, Uniswap and signers with `replica`, so `swap` and `fund` work on it as on any stock.
 * Nothing is minted to anyone but the liquidity position: the token's holders are the caller's.
 */
export async function openProjectToken(replica: Replica, spec: ProjectTokenSpec): Promise<Replica> {
  const { deployer, usdg, factory, positionManager } = replica;
  const token = await new MockStockToken__factory(deployer).deploy(spec.name, spec.symbol, deployer.address);
  await token.waitForDeployment();
  const tokenAddress = await token.getAddress();
  const usdgIsToken0 = BigInt(await usdg.getAddress()) < BigInt(tokenAddress);
  const opened = await openPool(
    deployer,
    { factory, positionManager, usdg },
    token,
    { symbol: spec.symbol, name: spec.name, price: spec.price, fee: spec.fee, usdgIsToken0 },
    { observationCardinality: 1, liquidityUsdg: spec.liquidityUsdg },
  );
  const funder = async (erc20: IERC20, account: string, amount: bigint): Promise<void> => {
    if ((await erc20.getAddress()) === tokenAddress) {
      await (await token.mint(account, amount)).wait();
    } else {
      await replica.fund(account, "USDG", amount);
    }
  };
  const { stock: _stock, swap: _swap, priceUsdgPerShare: _p, history: _h, fund: _f, ...core } = replica;
  return createReplica(
    { ...core, stocks: [opened.stock] },
    new Map([[opened.stock.poolAddress, []]]),
    funder,
  );
}
