// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// @title ScoreMath
/// @notice The track-record score of seed 001: `hits² × (stake / minStake) / (hits + misses + 1)`,
/// with 18 decimals.
/// @dev The whole expression is one fraction rounded down once: `hits² × stake × 1e18` over
/// `minStake × (hits + misses + 1)`, the numerator's 512-bit product handled by `Math.mulDiv`.
/// Dividing `stake / minStake` first would floor the weight to whole multiples of the minimum
/// stake; dividing by `hits + misses + 1` before multiplying would floor the hit ratio.
///
/// Range: for `hits, misses < 2^64`, `stake < 2^128` and `1 <= minStake < 2^128` nothing
/// overflows: `hits² < 2^128`, `stake × 1e18 < 2^188`, `minStake × (hits + misses + 1) < 2^194`,
/// and the result is below `hits × stake × 1e18 / minStake < 2^252`. The ledger's own inputs are
/// far inside it (counters are 32-bit, stakes 96-bit).
///
/// Properties (tested): the score never falls when a hit is added, never rises when a miss is
/// added, and is linear in stake up to the final rounding (`score(k·s) - k·score(s) < k`).
library ScoreMath {
    /// @notice The fixed-point unit of every score: 1e18 is a score of 1.0.
    uint256 internal constant ONE = 1e18;

    /// @notice The score of a record, 18 decimals, rounded down.
    /// @param hits Settled hits.
    /// @param misses Settled misses plus expired commits.
    /// @param stake The agent's stake, in the same units as `minStake`.
    /// @param minStake The ledger's minimum stake, the unit of weight; must be positive.
    function computeScore(
        uint256 hits,
        uint256 misses,
        uint256 stake,
        uint256 minStake
    ) internal pure returns (uint256) {
        if (hits == 0) return 0;
        return Math.mulDiv(hits * hits, stake * ONE, minStake * (hits + misses + 1));
    }
}
