// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @title MockStockToken
/// @notice Test stand-in for a Robinhood Chain stock token: an 18-decimal ERC-20 with the ERC-8056
/// scaled-UI-amount surface (`uiMultiplier`, `newUIMultiplier`, `effectiveAt`). Never deployed to a
/// real network.
/// @dev A corporate action (split, reverse split) changes only the UI multiplier, never balances, so pool
/// prices in raw units are untouched by it. The owner schedules the next multiplier; it takes effect on
/// its own once `block.timestamp >= effectiveAt`, with no transaction at that moment, which is why the
/// current value is derived on read rather than stored when it changes.
contract MockStockToken is ERC20, Ownable {
    /// @notice A multiplier of 1.0 in the 18-decimal fixed point ERC-8056 uses.
    uint256 public constant UI_MULTIPLIER_ONE = 1e18;

    /// @notice The multiplier must be positive: a zero multiplier would show every holder an empty balance.
    error MockStockTokenZeroMultiplier();
    /// @notice A schedule must lie in the present or the future: a past one would rewrite displayed history.
    error MockStockTokenEffectiveAtInPast(uint256 effectiveAt, uint256 nowTimestamp);

    /// @notice ERC-8056: a new multiplier was scheduled at `setAtTimestamp` (or set, when
    /// `effectiveAtTimestamp` is that same second); the standard's four-field event.
    event UIMultiplierUpdated(
        uint256 oldMultiplier,
        uint256 newMultiplier,
        uint256 setAtTimestamp,
        uint256 effectiveAtTimestamp
    );

    // The multiplier in force before `_effectiveAt`, and the one in force from it on.
    uint256 private _previousMultiplier;
    uint256 private _scheduledMultiplier;
    uint256 private _effectiveAt;

    /// @param name_ The ERC-20 name.
    /// @param symbol_ The ticker, e.g. "NVDA".
    /// @param owner_ The issuer allowed to mint and to schedule multipliers.
    constructor(
        string memory name_,
        string memory symbol_,
        address owner_
    ) ERC20(name_, symbol_) Ownable(owner_) {
        _previousMultiplier = UI_MULTIPLIER_ONE;
        _scheduledMultiplier = UI_MULTIPLIER_ONE;
        _effectiveAt = block.timestamp;
    }

    /// @notice Creates `amount` raw units (18 decimals) for `to`.
    /// @param to The receiver.
    /// @param amount The raw amount to create.
    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }

    /// @notice Schedules `multiplier` to take effect at `effectiveAtTimestamp`, replacing any pending one.
    /// @param multiplier The new multiplier, 18 decimals (2e18 after a 2-for-1 split).
    /// @param effectiveAtTimestamp When it takes effect; `block.timestamp` applies it at once.
    function setUIMultiplier(uint256 multiplier, uint256 effectiveAtTimestamp) external onlyOwner {
        if (multiplier == 0) revert MockStockTokenZeroMultiplier();
        if (effectiveAtTimestamp < block.timestamp) {
            revert MockStockTokenEffectiveAtInPast(effectiveAtTimestamp, block.timestamp);
        }
        // A pending schedule that has not taken effect is dropped: what holders see now stays in force.
        uint256 current = uiMultiplier();
        _previousMultiplier = current;
        _scheduledMultiplier = multiplier;
        _effectiveAt = effectiveAtTimestamp;
        emit UIMultiplierUpdated(current, multiplier, block.timestamp, effectiveAtTimestamp);
    }

    /// @notice ERC-8056: the multiplier in force now, 18 decimals.
    function uiMultiplier() public view returns (uint256) {
        return block.timestamp >= _effectiveAt ? _scheduledMultiplier : _previousMultiplier;
    }

    /// @notice ERC-8056: the latest scheduled multiplier (equal to `uiMultiplier()` once it took effect).
    function newUIMultiplier() external view returns (uint256) {
        return _scheduledMultiplier;
    }

    /// @notice ERC-8056: when `newUIMultiplier()` takes (or took) effect, in unix seconds.
    function effectiveAt() external view returns (uint256) {
        return _effectiveAt;
    }

    /// @notice The amount a holder sees for `rawAmount` raw units under the multiplier in force now.
    /// @param rawAmount A raw token amount.
    /// @return The UI amount, `rawAmount * uiMultiplier() / 1e18`, rounded down.
    function toUIAmount(uint256 rawAmount) external view returns (uint256) {
        return (rawAmount * uiMultiplier()) / UI_MULTIPLIER_ONE;
    }

    /// @notice The raw amount behind a UI amount under the multiplier in force now.
    /// @param uiAmount An amount as shown to holders.
    /// @return The raw amount, `uiAmount * 1e18 / uiMultiplier()`, rounded down.
    function fromUIAmount(uint256 uiAmount) external view returns (uint256) {
        return (uiAmount * UI_MULTIPLIER_ONE) / uiMultiplier();
    }

    /// @notice The balance of `account` as shown to holders.
    /// @param account The holder.
    /// @return The UI balance.
    function balanceOfUI(address account) external view returns (uint256) {
        return (balanceOf(account) * uiMultiplier()) / UI_MULTIPLIER_ONE;
    }
}
