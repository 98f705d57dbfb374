// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title ReplicaMulticall3
/// @notice The part of Multicall3's interface the engine uses, for the replica: `aggregate3` plus the
/// block reads that pin a batch to its block. The replica installs its runtime code at Multicall3's
/// canonical address (0xcA11bde05977b3631167028862bE2a173976CA11) with `hardhat_setCode`, so the same
/// client code batches reads on the replica and on Robinhood Chain. Never deployed to a real network.
/// @dev Same selectors and encodings as Multicall3's `aggregate3`, `getBlockNumber` and
/// `getCurrentBlockTimestamp`; no storage and no constructor, so its runtime code works wherever it is put.
contract ReplicaMulticall3 {
    /// @notice One call of a batch: its target, whether the batch may go on if it reverts, its calldata.
    struct Call3 {
        address target;
        bool allowFailure;
        bytes callData;
    }

    /// @notice The outcome of one call: whether it succeeded and what it returned (or its revert data).
    struct Result {
        bool success;
        bytes returnData;
    }

    /// @notice A call that was not allowed to fail reverted.
    /// @param index Its place in the batch.
    error ReplicaMulticall3CallFailed(uint256 index);

    /// @notice Runs `calls` in order and returns every outcome; reverts if a call with
    /// `allowFailure == false` reverts.
    /// @param calls The batch.
    /// @return results One entry per call, in order.
    function aggregate3(Call3[] calldata calls) external payable returns (Result[] memory results) {
        uint256 length = calls.length;
        results = new Result[](length);
        for (uint256 i; i < length; ++i) {
            Call3 calldata c = calls[i];
            // A batch of arbitrary calls is the contract's purpose; each outcome is returned.
            // solhint-disable-next-line avoid-low-level-calls
            (bool success, bytes memory returnData) = c.target.call(c.callData);
            if (!success && !c.allowFailure) revert ReplicaMulticall3CallFailed(i);
            results[i] = Result(success, returnData);
        }
    }

    /// @notice The number of the block the batch runs in.
    /// @return blockNumber `block.number`.
    function getBlockNumber() external view returns (uint256 blockNumber) {
        return block.number;
    }

    /// @notice The timestamp of the block the batch runs in.
    /// @return timestamp `block.timestamp`.
    function getCurrentBlockTimestamp() external view returns (uint256 timestamp) {
        return block.timestamp;
    }
}
