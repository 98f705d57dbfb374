// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {IERC721Receiver} from "@openzeppelin/contracts/token/ERC721/IERC721Receiver.sol";
import {ILiquidityLock} from "./interfaces/ILiquidityLock.sol";

/// @title LiquidityLock
/// @notice Holds the project's Uniswap v3 liquidity positions until a fixed expiry (ILiquidityLock).
contract LiquidityLock is ILiquidityLock, IERC721Receiver {
    /// @inheritdoc ILiquidityLock
    address public immutable override positionManager;
    /// @inheritdoc ILiquidityLock
    address public immutable override beneficiary;
    /// @inheritdoc ILiquidityLock
    uint256 public immutable override unlockAt;

    /// @param positionManager_ The Uniswap v3 NonfungiblePositionManager whose NFTs are locked.
    /// @param beneficiary_ Who may withdraw after expiry.
    /// @param unlockAt_ The expiry, unix seconds, in the future.
    constructor(address positionManager_, address beneficiary_, uint256 unlockAt_) {
        if (beneficiary_ == address(0)) revert LiquidityLockZeroBeneficiary();
        if (unlockAt_ <= block.timestamp) revert LiquidityLockExpiryInPast(unlockAt_, block.timestamp);
        positionManager = positionManager_;
        beneficiary = beneficiary_;
        unlockAt = unlockAt_;
    }

    /// @notice Accepts a position sent with `safeTransferFrom` from the position manager only.
    /// @dev Anything else is refused, so the lock holds nothing the monitor does not read.
    /// @param from Who sent the position.
    /// @param tokenId The position's id.
    /// @return The ERC-721 receiver selector.
    function onERC721Received(
        address,
        address from,
        uint256 tokenId,
        bytes calldata
    ) external returns (bytes4) {
        if (msg.sender != positionManager) revert LiquidityLockWrongToken(msg.sender);
        emit PositionLocked(tokenId, from, unlockAt);
        return IERC721Receiver.onERC721Received.selector;
    }

    /// @inheritdoc ILiquidityLock
    function withdraw(uint256 tokenId, address to) external override {
        if (msg.sender != beneficiary) revert LiquidityLockNotBeneficiary(msg.sender);
        if (block.timestamp < unlockAt) revert LiquidityLockStillLocked(tokenId, unlockAt, block.timestamp);
        emit PositionWithdrawn(tokenId, to);
        IERC721(positionManager).safeTransferFrom(address(this), to, tokenId);
    }
}
