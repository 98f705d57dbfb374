// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title MockUSDGReentrant
/// @notice A USDG that calls `hookTarget` with `hookData` on every transfer, to prove the ledger's token
/// paths cannot be re-entered.
contract MockUSDGReentrant is ERC20 {
    address public hookTarget;
    bytes public hookData;

    constructor() ERC20("Mock USDG reentrant", "USDGRE") {}

    /// @notice Mints `amount` to `to`.
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    /// @notice Calls `target_` with `data_` from inside every later transfer.
    function setHook(address target_, bytes calldata data_) external {
        hookTarget = target_;
        hookData = data_;
    }

    function _update(address from, address to, uint256 value) internal override {
        super._update(from, to, value);
        if (hookTarget != address(0) && from != address(0) && to != address(0)) {
            // A hostile token is exactly what this mock models.
            // solhint-disable-next-line avoid-low-level-calls
            (bool ok, bytes memory reason) = hookTarget.call(hookData);
            if (!ok) {
                assembly ("memory-safe") {
                    revert(add(reason, 0x20), mload(reason))
                }
            }
        }
    }
}
