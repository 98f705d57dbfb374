// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IAnchorRegistry} from "../interfaces/IAnchorRegistry.sol";

/// @notice Measures what `verifyInclusion` costs a contract that calls it: the execution gas of
/// the call (cold account and storage access included), without the 21,000 + calldata of an
/// outer transaction, which a calling contract pays once for all its work.
contract AnchorGasProbe {
    function measureVerifyInclusion(
        IAnchorRegistry registry,
        bytes32 seal,
        uint64 leafIndex,
        uint64 treeSize,
        bytes32[] calldata proof
    ) external view returns (bool included, uint256 gasUsed) {
        uint256 before = gasleft();
        included = registry.verifyInclusion(seal, leafIndex, treeSize, proof);
        gasUsed = before - gasleft();
    }
}
