// SPDX-License-Identifier: MIT
// The one exception to 0.8.28: Uniswap's periphery OracleLibrary only compiles below 0.8.
// solhint-disable-next-line compiler-version
pragma solidity 0.7.6;

import {OracleLibrary} from "@uniswap/v3-periphery/contracts/libraries/OracleLibrary.sol";
import {IUniswapV3Pool} from "@uniswap/v3-core/contracts/interfaces/IUniswapV3Pool.sol";

/// @notice The gas baseline: Uniswap's own library path (OracleLibrary.consult + getQuoteAtTick) on
/// the same pool the oracle reads, measured in the same run. Never deployed outside tests.
contract UniswapOracleHarness {
    /// @notice USDG raw units for `baseAmount` of `base`, from the mean tick of the last `window` seconds.
    function quote(
        address pool,
        uint32 window,
        uint128 baseAmount,
        address base,
        address quoteToken
    ) external view returns (uint256) {
        (int24 meanTick, ) = OracleLibrary.consult(pool, window);
        return OracleLibrary.getQuoteAtTick(meanTick, baseAmount, base, quoteToken);
    }

    /// @notice As `quote`, for the window ending `secondsAgo` seconds ago. OracleLibrary.consult only
    /// ends windows now, so this is the same observe-and-floor arithmetic written for a past window.
    function quoteAt(
        address pool,
        uint32 window,
        uint32 secondsAgo,
        uint128 baseAmount,
        address base,
        address quoteToken
    ) external view returns (uint256) {
        uint32[] memory secondsAgos = new uint32[](2);
        secondsAgos[0] = secondsAgo + window;
        secondsAgos[1] = secondsAgo;
        (int56[] memory tickCumulatives, ) = IUniswapV3Pool(pool).observe(secondsAgos);
        int56 delta = tickCumulatives[1] - tickCumulatives[0];
        int24 meanTick = int24(delta / int56(uint56(window)));
        if (delta < 0 && (delta % int56(uint56(window)) != 0)) meanTick--;
        return OracleLibrary.getQuoteAtTick(meanTick, baseAmount, base, quoteToken);
    }
}
