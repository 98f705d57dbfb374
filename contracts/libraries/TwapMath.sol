// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {TickMath} from "@uniswap/v3-core-0.8/contracts/libraries/TickMath.sol";

/// @title TwapMath
/// @notice Pure math of the oracle: the mean tick of a window and the 18-decimal USDG price of a tick.
/// @dev A tick `t` means a raw price of 1.0001^t token1 units per token0 unit. The price of the asset
/// in USDG per whole token, 18 decimals, is therefore
///     price18 = 1.0001^(+t or -t) * 10^(18 + assetDecimals - usdgDecimals)
/// with +t when the asset is token0 and -t when it is token1 (the reciprocal price).
library TwapMath {
    /// @notice The largest decimal exponent `18 + assetDecimals - usdgDecimals` supported: with it the
    /// largest price, 1.0001^887272 * 10^38 < 2^128 * 10^38, still fits in 256 bits.
    uint8 internal constant MAX_SCALE_EXPONENT = 38;

    /// @notice `priceAtTick` was given a decimal exponent above MAX_SCALE_EXPONENT.
    /// @param exponent The rejected exponent.
    error TwapMathExponentTooLarge(uint8 exponent);

    /// @notice The mean tick over a window, rounded toward negative infinity (as Uniswap's
    /// `OracleLibrary.consult`), from the pool's tick accumulator at the window's two ends.
    /// @dev The mean of ticks in [MIN_TICK, MAX_TICK] lies in that range, so for any real pool the
    /// narrowing to int24 is exact.
    /// @param tickCumulativeStart The accumulator at the window's start.
    /// @param tickCumulativeEnd The accumulator at the window's end.
    /// @param window The window's length in seconds (non-zero).
    /// @return meanTick The mean tick, floored.
    function meanTick(
        int56 tickCumulativeStart,
        int56 tickCumulativeEnd,
        uint32 window
    ) internal pure returns (int24) {
        int56 delta = tickCumulativeEnd - tickCumulativeStart;
        int56 length = int56(uint56(window));
        int56 mean = delta / length;
        // Solidity division truncates toward zero: a negative mean with a remainder is one tick lower.
        if (delta < 0 && delta % length != 0) mean--;
        return int24(mean);
    }

    /// @notice `10^(18 + assetDecimals - usdgDecimals)`'s exponent, and whether it is supported.
    /// @param assetDecimals The asset's decimals.
    /// @param usdgDecimals USDG's decimals.
    /// @return exponent The exponent (meaningless when `supported` is false).
    /// @return supported Whether the exponent lies in [0, MAX_SCALE_EXPONENT].
    function scaleExponent(
        uint8 assetDecimals,
        uint8 usdgDecimals
    ) internal pure returns (uint8 exponent, bool supported) {
        uint256 numerator = 18 + uint256(assetDecimals);
        if (numerator < usdgDecimals || numerator - usdgDecimals > MAX_SCALE_EXPONENT) return (0, false);
        return (uint8(numerator - usdgDecimals), true);
    }

    /// @notice The asset's price, USDG per whole token with 18 decimals, at `tick`, rounded down
    /// (up to TickMath's own rounding of the square root, far below 1 part in 10^15).
    /// @dev Follows `OracleLibrary.getQuoteAtTick`: square the Q64.96 square-root price in full
    /// precision while it fits (sqrt < 2^128), else drop 64 bits first; then one 512-bit multiply by
    /// the scale and shift back. Taking the reciprocal as 1.0001^-tick (TickMath is symmetric:
    /// MIN_TICK = -MAX_TICK) keeps one code path and avoids a division by a possibly tiny ratio.
    /// @param tick The (mean) tick of the pool, token1 per token0.
    /// @param assetIsToken0 Whether the asset is the pool's token0.
    /// @param exponent The scale exponent from `scaleExponent`, at most MAX_SCALE_EXPONENT (else
    /// TwapMathExponentTooLarge).
    /// @return price18 USDG per whole asset token, 18 decimals.
    function priceAtTick(int24 tick, bool assetIsToken0, uint8 exponent) internal pure returns (uint256) {
        uint256 sqrtRatioX96 = TickMath.getSqrtRatioAtTick(assetIsToken0 ? tick : -tick);
        if (exponent > MAX_SCALE_EXPONENT) revert TwapMathExponentTooLarge(exponent);
        uint256 scale;
        // 10^38 < 2^127 cannot overflow, and unchecked the power is one EXP instead of a checked loop.
        unchecked {
            scale = 10 ** exponent;
        }
        // Dividing by a power of two, a 512-bit product and a shift (mulShr) give the same floor as
        // mulDiv without its modular inverse.
        if (sqrtRatioX96 <= type(uint128).max) {
            return Math.mulShr(sqrtRatioX96 * sqrtRatioX96, scale, 192);
        }
        return Math.mulShr(Math.mulShr(sqrtRatioX96, sqrtRatioX96, 64), scale, 128);
    }
}
