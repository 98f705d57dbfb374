// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title MockUSDGNoReturn
/// @notice A 6-decimal token whose `transfer`, `transferFrom` and `approve` return nothing, like
/// some early stablecoins; failures revert. `SafeERC20` must accept it.
contract MockUSDGNoReturn {
    /// @notice Balance or allowance too low.
    error MockUSDGNoReturnInsufficient(uint256 available, uint256 needed);

    /// @notice ERC-20 transfer log.
    event Transfer(address indexed from, address indexed to, uint256 value);
    /// @notice ERC-20 approval log.
    event Approval(address indexed owner, address indexed spender, uint256 value);

    mapping(address account => uint256) public balanceOf;
    mapping(address owner => mapping(address spender => uint256)) public allowance;

    /// @notice 6, like USDG.
    function decimals() external pure returns (uint8) {
        return 6;
    }

    /// @notice Mints `amount` to `to`.
    function mint(address to, uint256 amount) external {
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    /// @notice Approves `spender` for `value`; returns nothing.
    function approve(address spender, uint256 value) external {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
    }

    /// @notice Moves `value` to `to`; returns nothing.
    function transfer(address to, uint256 value) external {
        _move(msg.sender, to, value);
    }

    /// @notice Moves `value` from `from` to `to` against an allowance; returns nothing.
    function transferFrom(address from, address to, uint256 value) external {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed < value) revert MockUSDGNoReturnInsufficient(allowed, value);
        allowance[from][msg.sender] = allowed - value;
        _move(from, to, value);
    }

    function _move(address from, address to, uint256 value) private {
        uint256 available = balanceOf[from];
        if (available < value) revert MockUSDGNoReturnInsufficient(available, value);
        balanceOf[from] = available - value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
