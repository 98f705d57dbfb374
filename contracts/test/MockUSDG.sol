// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title MockUSDG
/// @notice Test stand-in for Robinhood Chain's USDG stablecoin: an ERC-20 with 6 decimals that anyone
/// can mint. Never deployed to a real network.
/// @dev Minting is open on purpose: fixtures and property tests hand balances to many accounts and an
/// owner check would only add a signer to every call.
contract MockUSDG is ERC20 {
    constructor() ERC20("Global Dollar (replica)", "USDG") {}

    /// @notice Creates `amount` raw units (6 decimals) for `to`.
    /// @param to The receiver.
    /// @param amount The raw amount to create.
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    /// @inheritdoc ERC20
    function decimals() public pure override returns (uint8) {
        return 6;
    }
}
