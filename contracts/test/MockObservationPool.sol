// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @notice The slice of a Uniswap v3 pool the oracle reads, with a constant tick since `oldest`,
/// for the oracle's error-path unit tests. Real-pool behaviour is tested on the replica.
contract MockObservationPool {
    /// @notice A revert that is neither of the pool's own ("OLD", "I").
    error MockObservationPoolBroken();

    address public immutable token0;
    address public immutable token1;
    int24 public tick;
    uint16 public observationIndex;
    uint16 public observationCardinality;
    // Slots reserved by increaseObservationCardinalityNext, not yet in the ring.
    uint16 public observationCardinalityNext;
    // The oldest observation's timestamp: observe() reverts "OLD" for earlier targets.
    uint32 public oldest;
    // When set, observe() reverts with no data, as it does when it runs out of gas.
    bool public failSilently;
    // When set, observe() reverts with an error of its own, not one of Uniswap's reasons.
    bool public failOddly;

    constructor(address token0_, address token1_, uint16 cardinality, uint32 oldest_) {
        token0 = token0_;
        token1 = token1_;
        observationCardinality = cardinality;
        observationCardinalityNext = cardinality;
        oldest = oldest_;
    }

    function setTick(int24 tick_) external {
        tick = tick_;
    }

    function setFailSilently(bool failSilently_) external {
        failSilently = failSilently_;
    }

    function setFailOddly(bool failOddly_) external {
        failOddly = failOddly_;
    }

    function setObservations(uint16 index, uint16 cardinality, uint32 oldest_) external {
        observationIndex = index;
        observationCardinality = cardinality;
        if (observationCardinalityNext < cardinality) observationCardinalityNext = cardinality;
        oldest = oldest_;
    }

    function increaseObservationCardinalityNext(uint16 next) external {
        if (next > observationCardinalityNext) observationCardinalityNext = next;
    }

    function slot0() external view returns (uint160, int24, uint16, uint16, uint16, uint8, bool) {
        return (0, tick, observationIndex, observationCardinality, observationCardinalityNext, 0, true);
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
        if (failOddly) revert MockObservationPoolBroken();
        // Uniswap's own reasons (Oracle.sol), string reverts as the real pool's: "I" for no observation,
        // "OLD" for a target before the oldest.
        // solhint-disable-next-line gas-custom-errors
        require(observationCardinality != 0, "I");
        tickCumulatives = new int56[](secondsAgos.length);
        secondsPerLiquidity = new uint160[](secondsAgos.length);
        for (uint256 i = 0; i < secondsAgos.length; i++) {
            uint256 target = block.timestamp - secondsAgos[i];
            // solhint-disable-next-line gas-custom-errors
            require(target >= oldest, "OLD");
            tickCumulatives[i] = int56(tick) * int56(uint56(target));
        }
    }
}
