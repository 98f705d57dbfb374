// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";

/// @title MockStockFactory
/// @notice Stands in for Robinhood Chain's stock token factory in the replica. It deploys each stock token
/// with CREATE2 (the builder picks the salt, hence the pool's token order) and announces it with the event
/// layout reported for the chain's factory, so `npm run config:stocks` reads the replica's listing the same
/// way it reads the chain's. Never deployed to a real network.
contract MockStockFactory {
    /// @notice CREATE2 returned no contract (constructor reverted or the uid was already used).
    error MockStockFactoryFailed(bytes32 uid);

    /// @notice A stock token was deployed at `stock` under `uid`, with its ERC-20 name and symbol.
    event Deployed(bytes32 indexed uid, address stock, string name, string symbol);

    /// @notice Deploys a stock token's `initCode` with CREATE2 under `uid` and emits `Deployed`.
    /// @param uid The CREATE2 salt, also the listing's identifier in the event.
    /// @param initCode Creation bytecode followed by the ABI-encoded constructor arguments.
    /// @return stock The new token's address.
    function deploy(bytes32 uid, bytes calldata initCode) external returns (address stock) {
        bytes memory code = initCode;
        assembly ("memory-safe") {
            stock := create2(0, add(code, 0x20), mload(code), uid)
        }
        if (stock == address(0)) revert MockStockFactoryFailed(uid);
        emit Deployed(uid, stock, IERC20Metadata(stock).name(), IERC20Metadata(stock).symbol());
    }
}
