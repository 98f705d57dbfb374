import {
  AbiCoder,
  Contract,
  ContractFactory,
  ZeroAddress,
  getCreate2Address,
  keccak256,
  type Signer,
} from "ethers";
import FactoryArtifact from "@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json";
import RouterArtifact from "@uniswap/v3-periphery/artifacts/contracts/SwapRouter.sol/SwapRouter.json";
import PoolArtifact from "@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json";
import ManagerArtifact from "@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json";
import { IUniswapV3Factory__factory, type IUniswapV3Factory } from "../../typechain-types";

export interface UniswapDeployment {
  factory: IUniswapV3Factory;
  router: Contract;
  positionManager: Contract;
}

async function deployArtifact(
  artifact: { abi: unknown[]; bytecode: string },
  signer: Signer,
  ...args: unknown[]
): Promise<string> {
  const contract = await new ContractFactory(artifact.abi as never, artifact.bytecode, signer).deploy(
    ...args,
  );
  await contract.waitForDeployment();
  return contract.getAddress();
}

/**
 * Deploys Uniswap v3's factory, SwapRouter and NonfungiblePositionManager from the bytecode Uniswap
 * published in its npm packages, so the replica runs the audited code byte for byte.
 *
 * WETH9 and the position NFT descriptor are the zero address: the replica trades ERC-20s only (no
 * ETH wrapping) and never renders a position's tokenURI, the only uses of either.
 */
export async function deployUniswap(signer: Signer): Promise<UniswapDeployment> {
  return deployPeriphery(signer, await deployArtifact(FactoryArtifact, signer));
}

/**
 * Deploys the official SwapRouter and NonfungiblePositionManager against an existing factory (on a
 * fork: the chain's own). Both find pools by CREATE2 from Uniswap's pool init code hash, so they only
 * work with a factory that deploys the canonical pool bytecode; `canonicalPoolAddress` checks that.
 */
export async function deployPeriphery(
  signer: Signer,
  factoryAddress: string,
  weth9: string = ZeroAddress,
): Promise<UniswapDeployment> {
  const routerAddress = await deployArtifact(RouterArtifact, signer, factoryAddress, weth9);
  const managerAddress = await deployArtifact(ManagerArtifact, signer, factoryAddress, weth9, ZeroAddress);
  return {
    factory: IUniswapV3Factory__factory.connect(factoryAddress, signer),
    router: new Contract(routerAddress, RouterArtifact.abi, signer),
    positionManager: new Contract(managerAddress, ManagerArtifact.abi, signer),
  };
}

/**
 * keccak256 of the pool creation code in `@uniswap/v3-core`: the hash the official SwapRouter and
 * position manager find pools with (and the one Uniswap records for its deployments).
 */
export const POOL_INIT_CODE_HASH = keccak256(PoolArtifact.bytecode);

/** The address the periphery computes for a pool: CREATE2 from the factory with the pool init code hash. */
export function canonicalPoolAddress(
  factory: string,
  tokenA: string,
  tokenB: string,
  fee: number,
  initCodeHash: string = POOL_INIT_CODE_HASH,
): string {
  const [token0, token1] = BigInt(tokenA) < BigInt(tokenB) ? [tokenA, tokenB] : [tokenB, tokenA];
  const salt = keccak256(
    AbiCoder.defaultAbiCoder().encode(["address", "address", "uint24"], [token0, token1, fee]),
  );
  return getCreate2Address(factory, salt, initCodeHash);
}
