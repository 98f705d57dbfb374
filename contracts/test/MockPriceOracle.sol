// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IPriceOracle} from "../interfaces/IPriceOracle.sol";

/// @title MockPriceOracle
/// @notice A settable stand-in for the PriceOracle in CallLedger tests (never deployed for real).
/// @dev `price` returns the latest price set; `priceAt(t)` returns a price pinned for exactly `t`
/// if any, else the latest price set at or before `t`, else reverts as the real oracle does when
/// its buffer does not cover `t`. Any asset can be made to fail with each of the oracle's errors.
/// It implements only the reading side of `IPriceOracle` (the part CallLedger uses), so it does not
/// inherit the interface; it reverts with the interface's own errors.
contract MockPriceOracle {
    /// @notice How `priceAt` (and, for `NoSource`, `price`) fails for an asset.
    enum Failure {
        None,
        NoSource,
        WindowNotCovered,
        StalePrice,
        OtherError,
        EmptyRevert,
        ObserveFailed
    }

    struct Checkpoint {
        uint64 timestamp;
        uint192 price;
    }

    /// @notice A revert that is not one of the oracle's "no price" errors.
    error MockPriceOracleBroken(address asset);

    /// @notice As `IPriceOracle.twapWindow`.
    uint32 public twapWindow = 300;

    mapping(address asset => Checkpoint[]) private _history;
    mapping(address asset => mapping(uint256 timestamp => uint256 price)) private _pinned;
    mapping(address asset => Failure) public failure;

    /// @notice Sets the current price of `asset`, recorded as of this block's timestamp.
    function setPrice(address asset, uint256 price18) external {
        _history[asset].push(Checkpoint(uint64(block.timestamp), uint192(price18)));
    }

    /// @notice Pins the answer of `priceAt(asset, timestamp)`.
    function setPriceAt(address asset, uint256 timestamp, uint256 price18) external {
        _pinned[asset][timestamp] = price18;
    }

    /// @notice Makes `priceAt` of `asset` fail as `mode` (None restores it).
    function setFailure(address asset, Failure mode) external {
        failure[asset] = mode;
    }

    /// @notice As `IPriceOracle.price`: the latest price set.
    function price(address asset) external view returns (uint256) {
        Checkpoint[] storage history = _history[asset];
        if (history.length == 0 || failure[asset] == Failure.NoSource)
            revert IPriceOracle.PriceOracleNoSource(asset);
        return history[history.length - 1].price;
    }

    /// @notice As `IPriceOracle.priceAt`: the pinned price, else the latest set at or before `timestamp`.
    function priceAt(address asset, uint256 timestamp) external view returns (uint256) {
        if (timestamp > block.timestamp)
            revert IPriceOracle.PriceOracleFutureTimestamp(timestamp, block.timestamp);
        Failure mode = failure[asset];
        if (mode == Failure.NoSource) revert IPriceOracle.PriceOracleNoSource(asset);
        if (mode == Failure.WindowNotCovered)
            revert IPriceOracle.PriceOracleWindowNotCovered(asset, timestamp, block.timestamp);
        if (mode == Failure.StalePrice) revert IPriceOracle.PriceOracleStalePrice(asset, 0, timestamp, 1);
        if (mode == Failure.OtherError) revert MockPriceOracleBroken(asset);
        if (mode == Failure.ObserveFailed) revert IPriceOracle.PriceOracleObserveFailed(asset);
        if (mode == Failure.EmptyRevert) {
            // Revert with no data, as a call that ran out of gas does.
            assembly ("memory-safe") {
                revert(0, 0)
            }
        }
        uint256 pinned = _pinned[asset][timestamp];
        if (pinned != 0) return pinned;
        Checkpoint[] storage history = _history[asset];
        for (uint256 i = history.length; i > 0; i--) {
            if (history[i - 1].timestamp <= timestamp) return history[i - 1].price;
        }
        uint256 oldest = history.length == 0 ? block.timestamp : history[0].timestamp;
        revert IPriceOracle.PriceOracleWindowNotCovered(asset, timestamp, oldest);
    }
}
