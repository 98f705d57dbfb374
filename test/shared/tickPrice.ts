/**
 * Reference prices of Uniswap v3 ticks in big rationals, for the oracle's exactness tests (and anyone
 * checking a tick-derived price).
 *
 * A tick `t` is a raw price of 1.0001^t token1 units per token0 unit. The asset's price in USDG per
 * whole token, 18 decimals, is 1.0001^(±t) * 10^(18 + assetDecimals - usdgDecimals) (+t when the asset
 * is token0). `exactPow10001` gives 1.0001^t as an exact fraction; it is slow for |t| in the hundreds
 * of thousands (numbers of millions of bits), so the property tests use `pow10001Bounds`: a floor and
 * a ceiling of 1.0001^t * 2^FRACTION_BITS computed by square-and-multiply on bigints, rounding every
 * step outward, so the exact value always lies between them (checked against `exactPow10001`).
 */

export const MIN_TICK = -887272;
export const MAX_TICK = 887272;

/** Fractional bits of the fixed-point bounds: 1.0001^MIN_TICK ~ 2^-128 still keeps ~380 bits. */
export const FRACTION_BITS = 512n;
const ONE = 1n << FRACTION_BITS;

export interface Fraction {
  num: bigint;
  den: bigint;
}

/** 1.0001^tick as an exact fraction (10001^t / 10000^t, or its reciprocal for t < 0). */
export function exactPow10001(tick: number): Fraction {
  const n = BigInt(Math.abs(tick));
  const up = 10001n ** n;
  const down = 10000n ** n;
  return tick >= 0 ? { num: up, den: down } : { num: down, den: up };
}

function divFloor(a: bigint, b: bigint): bigint {
  return a / b; // operands are non-negative here
}

function divCeil(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

/** [lo, hi] with lo <= 1.0001^tick * 2^FRACTION_BITS <= hi. */
export function pow10001Bounds(tick: number): { lo: bigint; hi: bigint } {
  const n = Math.abs(tick);
  const baseLo = divFloor(10001n * ONE, 10000n);
  const baseHi = divCeil(10001n * ONE, 10000n);
  let lo = ONE;
  let hi = ONE;
  for (let bit = 20; bit >= 0; bit--) {
    lo = divFloor(lo * lo, ONE);
    hi = divCeil(hi * hi, ONE);
    if ((n >> bit) & 1) {
      lo = divFloor(lo * baseLo, ONE);
      hi = divCeil(hi * baseHi, ONE);
    }
  }
  if (tick >= 0) return { lo, hi };
  // The reciprocal swaps the bounds.
  return { lo: divFloor(ONE * ONE, hi), hi: divCeil(ONE * ONE, lo) };
}

/**
 * [lo, hi] integers with lo <= exact price18 <= hi, the exact price being
 * 1.0001^(assetIsToken0 ? tick : -tick) * 10^(18 + assetDecimals - usdgDecimals).
 */
export function price18Bounds(
  tick: number,
  assetIsToken0: boolean,
  assetDecimals: number,
  usdgDecimals: number,
): { lo: bigint; hi: bigint } {
  const { lo, hi } = pow10001Bounds(assetIsToken0 ? tick : -tick);
  const exponent = 18 + assetDecimals - usdgDecimals;
  const mul = exponent >= 0 ? 10n ** BigInt(exponent) : 1n;
  const div = (exponent < 0 ? 10n ** BigInt(-exponent) : 1n) * ONE;
  return { lo: divFloor(lo * mul, div), hi: divCeil(hi * mul, div) };
}

/**
 * Whether `actual` is within 1 part in `parts` of the exact price, or within 1 unit (the 18-decimal
 * price is an integer: below `parts` units the relative bound is finer than its resolution).
 * Decided on the bounds, so a pass is a proof: lo - tol <= actual <= hi + tol with tol = hi / parts + 1.
 */
export function isClose(actual: bigint, bounds: { lo: bigint; hi: bigint }, parts = 10n ** 15n): boolean {
  const tolerance = bounds.hi / parts + 1n;
  return actual >= bounds.lo - tolerance && actual <= bounds.hi + tolerance;
}

/** The mean tick of a window, rounded toward negative infinity (Uniswap's OracleLibrary.consult rule). */
export function meanTickFloor(
  tickCumulativeStart: bigint,
  tickCumulativeEnd: bigint,
  window: bigint,
): bigint {
  const delta = tickCumulativeEnd - tickCumulativeStart;
  const truncated = delta / window; // bigint division truncates toward zero
  return delta < 0n && delta % window !== 0n ? truncated - 1n : truncated;
}
