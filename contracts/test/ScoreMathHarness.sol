// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ScoreMath} from "../libraries/ScoreMath.sol";

/// @title ScoreMathHarness
/// @notice Exposes `ScoreMath` to the tests, one case or a batch per call (property tests check
/// thousands of cases; batching keeps them to a few RPC round trips).
contract ScoreMathHarness {
    /// @notice `ScoreMath.computeScore` of one record.
    function computeScore(
        uint256 hits,
        uint256 misses,
        uint256 stake,
        uint256 minStake
    ) external pure returns (uint256) {
        return ScoreMath.computeScore(hits, misses, stake, minStake);
    }

    /// @notice `ScoreMath.computeScore` of each record `(hits[i], misses[i], stakes[i])`.
    function computeScores(
        uint256[] calldata hits,
        uint256[] calldata misses,
        uint256[] calldata stakes,
        uint256 minStake
    ) external pure returns (uint256[] memory scores) {
        scores = new uint256[](hits.length);
        for (uint256 i = 0; i < hits.length; i++) {
            scores[i] = ScoreMath.computeScore(hits[i], misses[i], stakes[i], minStake);
        }
    }
}
