// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title IPriceOracle
/// @notice Time-weighted prices of Robinhood Chain stock tokens in USDG, read from Uniswap v3
/// pools (or, for an asset with no pool, from a named updater's pushed checkpoints).
/// @dev Every price is USDG per whole token with 18 decimals, whatever the tokens' own decimals.
interface IPriceOracle {
    /// @notice The asset has neither a pool nor any pushed price.
    error PriceOracleNoSource(address asset);
    /// @notice The pool's observation buffer (or the push history) does not cover the window
    /// `[timestamp - twapWindow, timestamp]`.
    error PriceOracleWindowNotCovered(address asset, uint256 timestamp, uint256 oldestCovered);
    /// @notice `priceAt` was asked about a moment after the current block.
    error PriceOracleFutureTimestamp(uint256 timestamp, uint256 nowTimestamp);
    /// @notice The latest pushed price at or before `timestamp` is older than the allowed staleness.
    error PriceOracleStalePrice(address asset, uint256 pricedAt, uint256 timestamp, uint256 maxStaleness);

    /// @notice The TWAP price of `asset` over the `twapWindow` seconds ending now.
    /// @param asset The stock token.
    /// @return price18 USDG per whole token, 18 decimals.
    function price(address asset) external view returns (uint256 price18);

    /// @notice The TWAP price of `asset` over the `twapWindow` seconds ending at `timestamp`.
    /// @dev Computed from the pool's tick accumulator whenever it is called, so the answer for a
    /// past moment does not change as the pool trades on, as long as the buffer still covers it.
    /// @param asset The stock token.
    /// @param timestamp The end of the window, at most the current block's timestamp.
    /// @return price18 USDG per whole token, 18 decimals.
    function priceAt(address asset, uint256 timestamp) external view returns (uint256 price18);

    /// @notice The length in seconds of every TWAP window this oracle computes.
    function twapWindow() external view returns (uint32);
}
