import { Interface } from "ethers";

/** The slice of ERC-20 the stewardship monitor reads: Transfer logs and decimals. */
export const erc20 = new Interface([
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "function decimals() view returns (uint8)",
]);

/** The slice of a Uniswap v3 pool it reads: Swap logs and the pair. */
export const uniswapV3Pool = new Interface([
  "event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)",
  "function token0() view returns (address)",
  "function token1() view returns (address)",
]);

/** The LP timelock (contracts/LiquidityLock.sol) and the slice of the position manager it locks. */
export const liquidityLock = new Interface([
  "function positionManager() view returns (address)",
  "function unlockAt() view returns (uint256)",
]);
export const positionManager = new Interface([
  "function ownerOf(uint256 tokenId) view returns (address)",
  "function positions(uint256 tokenId) view returns (uint96 nonce, address operator, address token0, address token1, uint24 fee, int24 tickLower, int24 tickUpper, uint128 liquidity, uint256 feeGrowthInside0LastX128, uint256 feeGrowthInside1LastX128, uint128 tokensOwed0, uint128 tokensOwed1)",
]);

export const TRANSFER_TOPIC = erc20.getEvent("Transfer")!.topicHash;
export const SWAP_TOPIC = uniswapV3Pool.getEvent("Swap")!.topicHash;
