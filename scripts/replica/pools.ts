import { MaxUint256, type Contract, type Signer } from "ethers";
import {
  IUniswapV3Pool__factory,
  type IUniswapV3Factory,
  type MockStockToken,
  type MockUSDG,
} from "../../typechain-types";
import { fullRange, sqrtPriceX96FromPrice, type PairShape } from "./math";
import type { ReplicaStock } from "./types";
import { priceOf, type StockSpec } from "./stocks";

export interface PoolSettings {
  /**
   * Observation slots per pool. The pool writes at most one observation per block in which it
   * trades, so 720 slots hold a month of hourly trading (or 30 h of one trade a minute). Growing
   * costs about 22k gas a slot in one transaction, so it must stay well under the 30M block gas limit.
   */
  observationCardinality: number;
  /** USDG placed on each side of each pool's full-range position (raw units, at the decimals the token reports). */
  liquidityUsdg: bigint;
}

/**
 * Creates the pool of `token` against USDG, initializes it at the spec's price, grows its
 * observation buffer and mints a full-range position through the position manager (full range so
 * that no swap of the history can run the pool dry).
 */
export async function openPool(
  signer: Signer,
  contracts: { factory: IUniswapV3Factory; positionManager: Contract; usdg: MockUSDG },
  token: MockStockToken,
  spec: StockSpec,
  settings: PoolSettings,
): Promise<{ stock: ReplicaStock; initialized: { blockNumber: number; blockHash: string } }> {
  const { factory, positionManager, usdg } = contracts;
  const [usdgAddress, tokenAddress, managerAddress] = await Promise.all([
    usdg.getAddress(),
    token.getAddress(),
    positionManager.getAddress(),
  ]);
  await (await factory.createPool(usdgAddress, tokenAddress, spec.fee)).wait();
  const poolAddress = await factory.getPool(usdgAddress, tokenAddress, spec.fee);
  const pool = IUniswapV3Pool__factory.connect(poolAddress, signer);

  // Order and decimals come from the chain; the spec only says what was intended.
  const [token0, tickSpacing, stockDecimals, usdgDecimals] = await Promise.all([
    pool.token0(),
    pool.tickSpacing(),
    token.decimals(),
    usdg.decimals(),
  ]);
  const usdgIsToken0 = token0.toLowerCase() === usdgAddress.toLowerCase();
  if (usdgIsToken0 !== spec.usdgIsToken0) {
    throw new Error(`${spec.symbol}: pool order differs from the spec (usdgIsToken0=${usdgIsToken0})`);
  }
  const shape: PairShape = {
    usdgIsToken0,
    usdgDecimals: Number(usdgDecimals),
    stockDecimals: Number(stockDecimals),
  };
  const price = priceOf(spec);
  const initialized = await (await pool.initialize(sqrtPriceX96FromPrice(price, shape))).wait();
  if (initialized === null) throw new Error(`${spec.symbol}: initialize was not mined`);
  await (await pool.increaseObservationCardinalityNext(settings.observationCardinality)).wait();

  // Shares worth `liquidityUsdg` at the opening price: usdg × 10^stockDec × 1e18 / (price18 × 10^usdgDec).
  const shares =
    (settings.liquidityUsdg * 10n ** BigInt(shape.stockDecimals) * 10n ** 18n) /
    (price * 10n ** BigInt(shape.usdgDecimals));
  const owner = await signer.getAddress();
  await (await usdg.mint(owner, settings.liquidityUsdg)).wait();
  await (await token.mint(owner, shares)).wait();
  await (await usdg.approve(managerAddress, MaxUint256)).wait();
  await (await token.approve(managerAddress, MaxUint256)).wait();
  const { tickLower, tickUpper } = fullRange(Number(tickSpacing));
  const [amount0, amount1] = usdgIsToken0
    ? [settings.liquidityUsdg, shares]
    : [shares, settings.liquidityUsdg];
  await (
    await positionManager.getFunction("mint")({
      token0,
      token1: usdgIsToken0 ? tokenAddress : usdgAddress,
      fee: spec.fee,
      tickLower,
      tickUpper,
      amount0Desired: amount0,
      amount1Desired: amount1,
      amount0Min: 0n,
      amount1Min: 0n,
      recipient: owner,
      deadline: MaxUint256,
    })
  ).wait();

  const stock: ReplicaStock = {
    symbol: spec.symbol,
    token,
    address: tokenAddress,
    pool,
    poolAddress,
    fee: spec.fee,
    tickSpacing: Number(tickSpacing),
    usdgIsToken0,
    decimals: shape.stockDecimals,
    shape,
  };
  return { stock, initialized: { blockNumber: initialized.blockNumber, blockHash: initialized.blockHash } };
}
