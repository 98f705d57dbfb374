// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {TwapMath} from "../libraries/TwapMath.sol";

/// @notice Exposes TwapMath to the tests; batched so a property run is one call.
contract TwapMathHarness {
    function meanTick(
        int56 tickCumulativeStart,
        int56 tickCumulativeEnd,
        uint32 window
    ) external pure returns (int24) {
        return TwapMath.meanTick(tickCumulativeStart, tickCumulativeEnd, window);
    }

    function scaleExponent(uint8 assetDecimals, uint8 usdgDecimals) external pure returns (uint8, bool) {
        return TwapMath.scaleExponent(assetDecimals, usdgDecimals);
    }

    function priceAtTick(int24 tick, bool assetIsToken0, uint8 exponent) external pure returns (uint256) {
        return TwapMath.priceAtTick(tick, assetIsToken0, exponent);
    }

    /// @notice The price at `tick` for every exponent, asset as token0 then as token1.
    function pricesAtTick(
        int24 tick,
        uint8[] calldata exponents
    ) external pure returns (uint256[] memory asToken0, uint256[] memory asToken1) {
        asToken0 = new uint256[](exponents.length);
        asToken1 = new uint256[](exponents.length);
        for (uint256 i = 0; i < exponents.length; i++) {
            asToken0[i] = TwapMath.priceAtTick(tick, true, exponents[i]);
            asToken1[i] = TwapMath.priceAtTick(tick, false, exponents[i]);
        }
    }
}
