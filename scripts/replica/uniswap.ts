import { Contract, ContractFactory, ZeroAddress, type Signer } from "ethers";
import FactoryArtifact from "@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json";
import RouterArtifact from "@uniswap/v3-periphery/artifacts/contracts/SwapRouter.sol/SwapRouter.json";
import ManagerArtifact from "@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json";
import { IUniswapV3Factory__factory, type IUniswapV3Factory } from "../../typechain-types";

export interface UniswapDeployment {
  factory: IUniswapV3Factory;
  router: Contract;
  positionManager: Contract;
}

export const ROUTER_ABI = RouterArtifact.abi;
export const POSITION_MANAGER_ABI = ManagerArtifact.abi;

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
  const factoryAddress = await deployArtifact(FactoryArtifact, signer);
  const routerAddress = await deployArtifact(RouterArtifact, signer, factoryAddress, ZeroAddress);
  const managerAddress = await deployArtifact(
    ManagerArtifact,
    signer,
    factoryAddress,
    ZeroAddress,
    ZeroAddress,
  );
  return {
    factory: IUniswapV3Factory__factory.connect(factoryAddress, signer),
    router: new Contract(routerAddress, RouterArtifact.abi, signer),
    positionManager: new Contract(managerAddress, ManagerArtifact.abi, signer),
  };
}
