// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {VestingWallet} from "@openzeppelin/contracts/finance/VestingWallet.sol";

/// @title OperatorVesting
/// @notice The operator's token allocation, vesting linearly from `start()` over `duration()` to
/// the operator (the owner), with the one exit seed 002 promises: "Any unvested operator
/// allocation is burned." At wind-down `burnUnvested(token)` sends whatever is not vested at that
/// moment to the burn address 0x…dEaD; what had vested stays releasable, and nothing vests after.
/// @dev OpenZeppelin's VestingWallet, unchanged except that after a token's burn its vested
/// amount is everything the wallet still holds plus what it released (the remainder is exactly
/// what had vested and not been released), and the schedule stops at the burn's time for every
/// token (`windDownAt`).
contract OperatorVesting is VestingWallet {
    using SafeERC20 for IERC20;

    /// @notice Where unvested tokens go: the stewardship rules' burn address.
    address public constant BURN_ADDRESS = 0x000000000000000000000000000000000000dEaD;

    /// @notice When the first unvested burn stopped the schedule (0 while vesting runs).
    uint64 public windDownAt;
    /// @notice Whether `token`'s unvested part was burned.
    mapping(address token => bool) public burned;

    /// @notice `token`'s unvested part was burned already; a second burn would burn vested tokens.
    error OperatorVestingAlreadyBurned(address token);

    /// @notice The unvested part of `token` was burned at `windDownAt`.
    /// @param token The ERC-20 burned.
    /// @param amount The amount sent to the burn address (0 when everything had vested).
    /// @param windDownAt The moment the schedule stopped.
    event UnvestedBurned(address indexed token, uint256 amount, uint64 windDownAt);

    /// @notice Vests to `operator` linearly from `startTimestamp` over `durationSeconds`.
    /// @param operator The beneficiary and owner (the only account that can burn).
    /// @param startTimestamp When vesting starts (unix seconds).
    /// @param durationSeconds How long it lasts.
    constructor(
        address operator,
        uint64 startTimestamp,
        uint64 durationSeconds
    ) VestingWallet(operator, startTimestamp, durationSeconds) {}

    /// @notice Burns the part of `token` not vested now (or at an earlier wind-down), once.
    /// @dev Owner only (OwnableUnauthorizedAccount otherwise); OperatorVestingAlreadyBurned on a
    /// second call for the same token. The first call fixes `windDownAt` for every token.
    /// @param token The ERC-20 held by the wallet (the operator allocation).
    function burnUnvested(address token) external onlyOwner {
        if (burned[token]) revert OperatorVestingAlreadyBurned(token);
        uint64 at = windDownAt;
        if (at == 0) {
            at = uint64(block.timestamp);
            windDownAt = at;
        }
        uint256 total = IERC20(token).balanceOf(address(this)) + released(token);
        uint256 amount = total - _vestingSchedule(total, at);
        burned[token] = true;
        emit UnvestedBurned(token, amount, at);
        if (amount > 0) IERC20(token).safeTransfer(BURN_ADDRESS, amount);
    }

    /// @notice The amount of `token` vested at `timestamp`: the linear schedule until the wind-down;
    /// after `token`'s burn, everything the wallet holds plus what it released.
    /// @param token The ERC-20.
    /// @param timestamp The moment asked for (unix seconds).
    /// @return The vested amount.
    function vestedAmount(address token, uint64 timestamp) public view override returns (uint256) {
        if (burned[token]) return IERC20(token).balanceOf(address(this)) + released(token);
        uint64 at = windDownAt;
        return super.vestedAmount(token, at != 0 && timestamp > at ? at : timestamp);
    }
}
