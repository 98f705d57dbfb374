// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// @title TokenBatcher
/// @notice Test helper: many ERC-20 transfers from the caller in one transaction, so a scripted token
/// history (hundreds of holders) costs a handful of blocks. Each Transfer log names the caller as the
/// sender, exactly as if the caller had sent each transfer itself. Never deployed to a real network.
contract TokenBatcher {
    using SafeERC20 for IERC20;

    /// @notice The recipient and amount lists differ in length.
    error TokenBatcherLengthMismatch(uint256 recipients, uint256 amounts);

    /// @notice Moves `amounts[i]` of `token` from the caller to `to[i]`, for every i.
    /// @dev The caller must have approved this contract for the sum.
    /// @param token The ERC-20 token.
    /// @param to The recipients.
    /// @param amounts The raw amounts, one per recipient.
    function send(IERC20 token, address[] calldata to, uint256[] calldata amounts) external {
        if (to.length != amounts.length) revert TokenBatcherLengthMismatch(to.length, amounts.length);
        for (uint256 i = 0; i < to.length; ++i) {
            token.safeTransferFrom(msg.sender, to[i], amounts[i]);
        }
    }
}
