// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title MockUSDGReturnsFalse
/// @notice A USDG whose transfers report failure by returning false (and move nothing) once
/// `failing` is set.
contract MockUSDGReturnsFalse is ERC20 {
    bool public failing;

    constructor() ERC20("Mock USDG returns false", "USDGF") {}

    /// @notice Mints `amount` to `to`.
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    /// @notice Makes every later transfer return false.
    function setFailing(bool failing_) external {
        failing = failing_;
    }

    /// @inheritdoc ERC20
    function transfer(address to, uint256 value) public override returns (bool) {
        if (failing) return false;
        return super.transfer(to, value);
    }

    /// @inheritdoc ERC20
    function transferFrom(address from, address to, uint256 value) public override returns (bool) {
        if (failing) return false;
        return super.transferFrom(from, to, value);
    }

    /// @inheritdoc ERC20
    function decimals() public pure override returns (uint8) {
        return 6;
    }
}
