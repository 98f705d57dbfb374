/**
 * Exact bigint price math between "USDG per whole share" and Uniswap v3's sqrtPriceX96, for either
 * token order and any decimals. Pure functions: the builder uses them to initialize pools, tests use
 * them to read spot prices.
 */

export const Q96 = 2n ** 96n;
export const Q192 = 2n ** 192n;
/** Prices are USDG per whole share with 18 decimals, the PriceOracle's format. */
export const PRICE_ONE = 10n ** 18n;

/** Uniswap v3's tick bounds (TickMath.MIN_TICK / MAX_TICK). */
export const MIN_TICK = -887272;
export const MAX_TICK = 887272;

/** How a pool's two tokens relate to "USDG per share". */
export interface PairShape {
  usdgIsToken0: boolean;
  usdgDecimals: number;
  stockDecimals: number;
}

/** Floor of the square root of a non-negative bigint. */
export function isqrt(n: bigint): bigint {
  if (n < 0n) throw new RangeError(`isqrt of negative ${n}`);
  if (n < 2n) return n;
  // Newton's method from a power of two above the root decreases monotonically to the floor.
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/**
 * The sqrtPriceX96 at which a pool quotes `price18` USDG per whole share. Uniswap prices token1 in
 * token0 raw units, so the raw ratio is shares-per-USDG when USDG is token0 and USDG-per-share
 * otherwise, each scaled by the two tokens' decimals.
 */
export function sqrtPriceX96FromPrice(price18: bigint, shape: PairShape): bigint {
  if (price18 <= 0n) throw new RangeError(`price must be positive, got ${price18}`);
  const usdgUnit = 10n ** BigInt(shape.usdgDecimals);
  const stockUnit = 10n ** BigInt(shape.stockDecimals);
  const ratioX192 = shape.usdgIsToken0
    ? (Q192 * stockUnit * PRICE_ONE) / (price18 * usdgUnit)
    : (Q192 * price18 * usdgUnit) / (PRICE_ONE * stockUnit);
  return isqrt(ratioX192);
}

/** USDG per whole share (18 decimals, rounded down) quoted by a pool at `sqrtPriceX96`. */
export function priceFromSqrtPriceX96(sqrtPriceX96: bigint, shape: PairShape): bigint {
  if (sqrtPriceX96 <= 0n) throw new RangeError(`sqrtPriceX96 must be positive, got ${sqrtPriceX96}`);
  const usdgUnit = 10n ** BigInt(shape.usdgDecimals);
  const stockUnit = 10n ** BigInt(shape.stockDecimals);
  const squared = sqrtPriceX96 * sqrtPriceX96;
  return shape.usdgIsToken0
    ? (Q192 * stockUnit * PRICE_ONE) / (squared * usdgUnit)
    : (squared * stockUnit * PRICE_ONE) / (Q192 * usdgUnit);
}

/** Decimals of both tokens, read on chain: nothing assumes USDG's (sources disagree between 6 and 18). */
export type PairDecimals = Pick<PairShape, "usdgDecimals" | "stockDecimals">;

/** The raw USDG that raw `shares` are worth at `price18` USDG per whole share, rounded down. */
export function usdgValue(shares: bigint, price18: bigint, decimals: PairDecimals): bigint {
  return (
    (shares * price18 * 10n ** BigInt(decimals.usdgDecimals)) /
    (PRICE_ONE * 10n ** BigInt(decimals.stockDecimals))
  );
}

/** USDG per whole share (18 decimals, rounded down) of a trade of raw `usdg` against raw `shares`. */
export function tradePrice(usdg: bigint, shares: bigint, decimals: PairDecimals): bigint {
  return (
    (usdg * PRICE_ONE * 10n ** BigInt(decimals.stockDecimals)) /
    (shares * 10n ** BigInt(decimals.usdgDecimals))
  );
}

/**
 * USDG per whole share at `tick` as a float (1.0001^tick adjusted for order and decimals). Good to
 * about 1e-12 relative; contract tests that need the exact on-chain rounding compute it themselves.
 */
export function approxPriceAtTick(tick: number, shape: PairShape): number {
  const raw = Math.pow(1.0001, tick);
  const scale = Math.pow(10, shape.stockDecimals - shape.usdgDecimals);
  return shape.usdgIsToken0 ? scale / raw : raw * scale;
}

/** The widest range a pool with `tickSpacing` accepts (both ends multiples of the spacing). */
export function fullRange(tickSpacing: number): { tickLower: number; tickUpper: number } {
  return {
    tickLower: Math.ceil(MIN_TICK / tickSpacing) * tickSpacing,
    tickUpper: Math.floor(MAX_TICK / tickSpacing) * tickSpacing,
  };
}
