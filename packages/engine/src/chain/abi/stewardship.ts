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

export const TRANSFER_TOPIC = erc20.getEvent("Transfer")!.topicHash;
export const SWAP_TOPIC = uniswapV3Pool.getEvent("Swap")!.topicHash;
