// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title Aggregate3Probe
/// @notice Test helper with Multicall3's `aggregate3` interface: many calls answered by one
/// `eth_call`, so benches and tests exercise the engine's batched-read path on a node that has no
/// Multicall3 at its canonical address yet. Never deployed to a real network.
contract Aggregate3Probe {
    /// @notice One call: its target, whether it may fail, its calldata.
    struct Call3 {
        address target;
        bool allowFailure;
        bytes callData;
    }

    /// @notice One answer: whether the call succeeded, and what it returned.
    struct Result {
        bool success;
        bytes returnData;
    }

    /// @notice Call `index` failed and was not allowed to.
    error Aggregate3ProbeCallFailed(uint256 index);

    /// @notice Makes every call in order and returns every answer.
    /// @param calls The calls.
    /// @return returnData One result per call, in order.
    function aggregate3(Call3[] calldata calls) external payable returns (Result[] memory returnData) {
        returnData = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; ++i) {
            (bool success, bytes memory data) = calls[i].target.call(calls[i].callData);
            if (!success && !calls[i].allowFailure) revert Aggregate3ProbeCallFailed(i);
            returnData[i] = Result(success, data);
        }
    }
}
