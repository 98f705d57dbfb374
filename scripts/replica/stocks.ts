import { parseUnits } from "ethers";

/** One stock token of the replica and the pool that trades it against USDG. */
export interface StockSpec {
  symbol: string;
  name: string;
  /** Opening price, USDG per whole share (decimal string, parsed to 18 decimals). */
  price: string;
  /** Uniswap v3 fee tier in hundredths of a bip (500, 3000 or 10000: enabled in a fresh factory). */
  fee: number;
  /**
   * The pool's token order. On Robinhood Chain USDG's address sorts below the stock tokens, so USDG
   * is token0 there; one replica pool is deliberately the other way round so every consumer of the
   * pools (oracle, ledger tests) is exercised in both orders.
   */
  usdgIsToken0: boolean;
}

/** The replica's default listing: realistic prices across the 100–900 USDG range, both token orders. */
export const DEFAULT_STOCKS: readonly StockSpec[] = [
  { symbol: "NVDA", name: "NVIDIA (replica)", price: "180", fee: 3000, usdgIsToken0: true },
  { symbol: "TSLA", name: "Tesla (replica)", price: "430", fee: 3000, usdgIsToken0: false },
  { symbol: "META", name: "Meta Platforms (replica)", price: "745.5", fee: 500, usdgIsToken0: true },
];

export function priceOf(spec: StockSpec): bigint {
  return parseUnits(spec.price, 18);
}
