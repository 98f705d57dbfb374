import type { Contract } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import type { IUniswapV3Factory, IUniswapV3Pool, MockStockToken, MockUSDG } from "../../typechain-types";
import type { PairShape } from "./math";
import type { PoolEvent } from "./history";

/** Buying shares pays USDG and lifts the USDG-per-share price; selling does the opposite. */
export type Side = "buy" | "sell";

/** One stock token and its USDG pool. */
export interface ReplicaStock {
  symbol: string;
  /** On a fork this is attached to the real token: only its ERC-20 and ERC-8056 views are meaningful. */
  token: MockStockToken;
  address: string;
  pool: IUniswapV3Pool;
  poolAddress: string;
  fee: number;
  tickSpacing: number;
  /** Read from the pool (`token0() == usdg`), not assumed. */
  usdgIsToken0: boolean;
  /** Read from the token. */
  decimals: number;
  /** Order and decimals, as the pure price math in `math.ts` wants them. */
  shape: PairShape;
}

/** What `swap` did: the pool's state after it, and the amounts that moved. */
export interface SwapResult extends PoolEvent {
  side: Side;
  amountIn: bigint;
  amountOut: bigint;
}

export interface SwapOptions {
  /** Mine the swap at this block timestamp (unix seconds, after the latest block). */
  at?: number;
  /** Swapper; the replica's trader by default. Funded automatically when short. */
  from?: HardhatEthersSigner;
}

/** A stock by its entry or its ticker. */
export type StockRef = ReplicaStock | string;

/** The trading surface of Robinhood Chain as the tests see it, replica or fork alike. */
export interface Replica {
  mode: "replica" | "fork";
  /** The chain whose surface this is: 31337 for the replica, the forked chain's id on a fork. */
  chainId: number;
  usdg: MockUSDG;
  /** Read from the token. */
  usdgDecimals: number;
  stocks: readonly ReplicaStock[];
  factory: IUniswapV3Factory;
  /**
   * The contract whose `Deployed` events list the stock tokens: `MockStockFactory` on the replica, the
   * config's `stockFactory` on a fork ("" when the config names none).
   */
  stockFactory: string;
  /** Uniswap SwapRouter (official artifact ABI). */
  router: Contract;
  /** Uniswap NonfungiblePositionManager (official artifact ABI). */
  positionManager: Contract;
  /** Deployed everything, owns the stock tokens, holds the liquidity positions. */
  deployer: HardhatEthersSigner;
  /** Makes the swaps of the history and, by default, those of `swap`. */
  trader: HardhatEthersSigner;
  /** Wall-clock milliseconds the build (or the attach, on a fork) took. */
  buildMs: number;
  /** Block timestamp when the replica was complete. */
  builtAt: number;

  stock(ref: StockRef): ReplicaStock;
  /** Swaps exactly `amountIn` raw units in: USDG to buy, shares to sell (each at its own decimals, `usdgDecimals` / `decimals`). */
  swap(ref: StockRef, side: Side, amountIn: bigint, options?: SwapOptions): Promise<SwapResult>;
  /** Spot USDG per whole share, 18 decimals (rounded down), from slot0. */
  priceUsdgPerShare(ref: StockRef): Promise<bigint>;
  /** Every price change of the pool since the build (or attach), minus any a snapshot revert undid. */
  history(ref: StockRef): Promise<PoolEvent[]>;
  /** Gives `account` `amount` raw units of USDG (`"USDG"`) or of a stock. */
  fund(account: string, token: "USDG" | StockRef, amount: bigint): Promise<void>;
}
