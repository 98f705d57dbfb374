// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

// Imported only so that TypeChain generates typed bindings (IUniswapV3Pool, IUniswapV3Factory) for the
// pools and the factory the replica deploys from Uniswap's official artifacts. Nothing here is deployed.
// Whole-file imports: no symbol is used in Solidity, which named imports would flag as unused.
import "@uniswap/v3-core-0.8/contracts/interfaces/IUniswapV3Pool.sol";
import "@uniswap/v3-core-0.8/contracts/interfaces/IUniswapV3Factory.sol";
