// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @notice The slice of a Uniswap v3 pool the oracle reads, with a constant tick since `oldest`,
/// for the oracle's error-path unit tests. Real-pool behaviour is tested on the replica.
contract MockObservationPool {
    /// @notice Stands for the pool's "OLD" revert: the target precedes the oldest observation.
    error MockObservationPoolOld(uint256 target, uint32 oldest);
    /// @notice Stands for the pool's "I" revert: no observation has been written.
    error MockObservationPoolEmpty();

    address public immutable token0;
    address public immutable token1;
    int24 public tick;
    uint16 public observationIndex;
    uint16 public observationCardinality;
    // The oldest observation's timestamp: observe() reverts "OLD" for earlier targets.
    uint32 public oldest;
    // When set, observe() reverts with no data, as it does when it runs out of gas.
    bool public failSilently;

    constructor(address token0_, address token1_, uint16 cardinality, uint32 oldest_) {
        token0 = token0_;
        token1 = token1_;
        observationCardinality = cardinality;
        oldest = oldest_;
    }

    function setTick(int24 tick_) external {
        tick = tick_;
    }

    function setFailSilently(bool failSilently_) external {
        failSilently = failSilently_;
    }

    function setObservations(uint16 index, uint16 cardinality, uint32 oldest_) external {
        observationIndex = index;
        observationCardinality = cardinality;
        oldest = oldest_;
    }

    function slot0() external view returns (uint160, int24, uint16, uint16, uint16, uint8, bool) {
        return (0, tick, observationIndex, observationCardinality, observationCardinality, 0, true);
    }

    /// @notice Slot `observationIndex + 1` holds the oldest observation (a wrapped ring); others are empty.
    function observations(uint256 index) external view returns (uint32, int56, uint160, bool) {
        if (
            observationCardinality != 0 && index == (uint256(observationIndex) + 1) % observationCardinality
        ) {
            return (oldest, 0, 0, true);
        }
        return (0, 0, 0, false);
    }

    function observe(
        uint32[] calldata secondsAgos
    ) external view returns (int56[] memory tickCumulatives, uint160[] memory secondsPerLiquidity) {
        if (failSilently) {
            // An empty revert, which no Solidity statement but assembly can produce without a warning.
            assembly {
                revert(0, 0)
            }
        }
        if (observationCardinality == 0) revert MockObservationPoolEmpty();
        tickCumulatives = new int56[](secondsAgos.length);
        secondsPerLiquidity = new uint160[](secondsAgos.length);
        for (uint256 i = 0; i < secondsAgos.length; i++) {
            uint256 target = block.timestamp - secondsAgos[i];
            if (target < oldest) revert MockObservationPoolOld(target, oldest);
            tickCumulatives[i] = int56(tick) * int56(uint56(target));
        }
    }
}
