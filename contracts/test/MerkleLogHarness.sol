// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {MerkleLog} from "../libraries/MerkleLog.sol";

/// @notice Exposes MerkleLog to the tests. The batch entry points let one eth_call check hundreds
/// of proofs, which is what makes on-chain property tests affordable.
contract MerkleLogHarness {
    struct InclusionCase {
        bytes32 seal;
        uint256 leafIndex;
        uint256 treeSize;
        bytes32 root;
        bytes32[] proof;
    }

    struct ConsistencyCase {
        uint256 fromSize;
        uint256 toSize;
        bytes32 fromRoot;
        bytes32 toRoot;
        bytes32[] proof;
    }

    function emptyRoot() external pure returns (bytes32) {
        return MerkleLog.EMPTY_ROOT;
    }

    function hashLeaf(bytes32 seal) external view returns (bytes32) {
        return MerkleLog.hashLeaf(seal);
    }

    function hashNode(bytes32 left, bytes32 right) external view returns (bytes32) {
        return MerkleLog.hashNode(left, right);
    }

    function rootFromInclusionProof(
        bytes32 leafHash,
        uint256 leafIndex,
        uint256 treeSize,
        bytes32[] calldata proof
    ) external view returns (bytes32) {
        return MerkleLog.rootFromInclusionProof(leafHash, leafIndex, treeSize, proof);
    }

    function verifyInclusion(
        bytes32 seal,
        uint256 leafIndex,
        uint256 treeSize,
        bytes32[] calldata proof,
        bytes32 root
    ) external view returns (bool) {
        return MerkleLog.verifyInclusion(seal, leafIndex, treeSize, proof, root);
    }

    function rootFromConsistencyProof(
        uint256 fromSize,
        uint256 toSize,
        bytes32 fromRoot,
        bytes32[] calldata proof
    ) external view returns (bytes32) {
        return MerkleLog.rootFromConsistencyProof(fromSize, toSize, fromRoot, proof);
    }

    function verifyConsistency(
        uint256 fromSize,
        uint256 toSize,
        bytes32 fromRoot,
        bytes32 toRoot,
        bytes32[] calldata proof
    ) external view returns (bool) {
        return MerkleLog.verifyConsistency(fromSize, toSize, fromRoot, toRoot, proof);
    }

    function verifyInclusionBatch(
        InclusionCase[] calldata cases
    ) external view returns (bool[] memory results) {
        results = new bool[](cases.length);
        for (uint256 i; i < cases.length; ++i) {
            InclusionCase calldata c = cases[i];
            results[i] = MerkleLog.verifyInclusion(c.seal, c.leafIndex, c.treeSize, c.proof, c.root);
        }
    }

    function verifyConsistencyBatch(
        ConsistencyCase[] calldata cases
    ) external view returns (bool[] memory results) {
        results = new bool[](cases.length);
        for (uint256 i; i < cases.length; ++i) {
            ConsistencyCase calldata c = cases[i];
            results[i] = MerkleLog.verifyConsistency(c.fromSize, c.toSize, c.fromRoot, c.toRoot, c.proof);
        }
    }
}
