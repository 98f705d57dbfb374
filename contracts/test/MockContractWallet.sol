// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC1271} from "@openzeppelin/contracts/interfaces/IERC1271.sol";
import {Address} from "@openzeppelin/contracts/utils/Address.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @title MockContractWallet
/// @notice Test stand-in for an agent's smart-contract wallet: it holds tokens, runs the calls its owner
/// sends (an approval, a swap through the Uniswap router) and answers EIP-1271 for signatures made by
/// its owner's key. Never deployed to a real network.
/// @dev A wallet without a private key of its own cannot sign a registration; the engine asks it through
/// `isValidSignature`, which is what binds a contract wallet to an agent.
contract MockContractWallet is IERC1271 {
    /// @notice The key that controls the wallet and whose signatures it accepts.
    address public immutable owner;

    /// @notice Only the owner may make the wallet call out.
    /// @param caller Who tried.
    /// @param owner_ The wallet's owner.
    error MockContractWalletNotOwner(address caller, address owner_);

    /// @param owner_ The key that controls the wallet.
    constructor(address owner_) {
        owner = owner_;
    }

    /// @notice Calls `target` with `data` from the wallet (owner only); a revert is passed on as is.
    /// @param target The contract to call (a token to approve, the router to swap through).
    /// @param data The calldata.
    /// @return result What the call returned.
    function execute(address target, bytes calldata data) external returns (bytes memory result) {
        if (msg.sender != owner) revert MockContractWalletNotOwner(msg.sender, owner);
        return Address.functionCall(target, data);
    }

    /// @notice EIP-1271: accepts `signature` for `hash` when the owner's key made it.
    /// @param hash The signed digest (for a registration: its EIP-712 digest).
    /// @param signature A 65-byte ECDSA signature.
    /// @return magicValue `0x1626ba7e` when valid, `0xffffffff` otherwise.
    function isValidSignature(
        bytes32 hash,
        bytes calldata signature
    ) external view returns (bytes4 magicValue) {
        (address signer, ECDSA.RecoverError failure, ) = ECDSA.tryRecover(hash, signature);
        bool valid = failure == ECDSA.RecoverError.NoError && signer == owner;
        return valid ? IERC1271.isValidSignature.selector : bytes4(0xffffffff);
    }
}
