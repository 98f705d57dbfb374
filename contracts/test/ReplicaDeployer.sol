// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title ReplicaDeployer
/// @notice CREATE2 deployer used by the replica builder so that token addresses, and hence each pool's
/// token0/token1 order, are chosen by salt instead of by whichever nonce the deployer happens to be at.
/// Never deployed to a real network.
contract ReplicaDeployer {
    /// @notice CREATE2 returned no contract (constructor reverted or the salt was already used).
    error ReplicaDeployerFailed(bytes32 salt);

    /// @notice A contract was deployed at `deployed` from `salt`.
    event Deployed(address indexed deployed, bytes32 indexed salt);

    /// @notice Deploys `initCode` with CREATE2 under `salt`.
    /// @param salt The CREATE2 salt.
    /// @param initCode Creation bytecode followed by the ABI-encoded constructor arguments.
    /// @return deployed The new contract's address.
    function deploy(bytes32 salt, bytes calldata initCode) external returns (address deployed) {
        bytes memory code = initCode;
        assembly ("memory-safe") {
            deployed := create2(0, add(code, 0x20), mload(code), salt)
        }
        if (deployed == address(0)) revert ReplicaDeployerFailed(salt);
        emit Deployed(deployed, salt);
    }
}
