// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title ILiquidityLock
/// @notice A timelock for the project's liquidity: it holds Uniswap v3 position NFTs and lets its
/// beneficiary take them out only once `unlockAt` has passed. Seed 002: "The operator will not
/// withdraw, and will not attempt to circumvent, the LP timelock before its expiry." There is no
/// other way out: no owner, no early release, no upgrade.
/// @dev The stewardship monitor reads `unlockAt` and the position (its holder and liquidity on the
/// position manager) every day and raises a public alarm if the position moves before expiry.
interface ILiquidityLock {
    /// @notice The beneficiary passed to the constructor is the zero address.
    error LiquidityLockZeroBeneficiary();
    /// @notice The expiry passed to the constructor is not in the future.
    error LiquidityLockExpiryInPast(uint256 unlockAt, uint256 nowTimestamp);
    /// @notice An NFT other than the configured position manager's was sent to the lock.
    error LiquidityLockWrongToken(address token);
    /// @notice Someone other than the beneficiary asked to withdraw.
    error LiquidityLockNotBeneficiary(address caller);
    /// @notice A withdrawal before the lock's expiry.
    error LiquidityLockStillLocked(uint256 tokenId, uint256 unlockAt, uint256 nowTimestamp);

    /// @notice A position was locked until `unlockAt`.
    /// @param tokenId The position's id on the position manager.
    /// @param from Who sent it.
    /// @param unlockAt When it can be withdrawn (unix seconds).
    event PositionLocked(uint256 indexed tokenId, address indexed from, uint256 unlockAt);

    /// @notice A position left the lock after its expiry.
    /// @param tokenId The position's id on the position manager.
    /// @param to Who received it.
    event PositionWithdrawn(uint256 indexed tokenId, address indexed to);

    /// @notice The position manager whose NFTs this lock holds.
    function positionManager() external view returns (address);

    /// @notice The only account that may withdraw, and only after `unlockAt`.
    function beneficiary() external view returns (address);

    /// @notice The expiry, unix seconds: before it nothing leaves the lock.
    function unlockAt() external view returns (uint256);

    /// @notice Sends a locked position to `to` once the lock has expired.
    /// @dev Beneficiary only; reverts with LiquidityLockStillLocked before `unlockAt`.
    /// @param tokenId The position's id on the position manager.
    /// @param to Who receives it.
    function withdraw(uint256 tokenId, address to) external;
}
