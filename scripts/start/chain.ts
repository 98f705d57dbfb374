import { existsSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, startHardhatNode, type HardhatNode } from "@augur/engine";
import type { AugurDeployment } from "../../deploy";
import type { Replica } from "../replica/types";
import { KEEPER_ACCOUNT, nodeAccount } from "./agents";

/**
 * USDG on each side of each demo pool (whole USDG): deep enough that a demo agent's whole book
 * (250,000 USDG) moves its pool by a few percent, not tens, so the pooled mark's liquidation
 * discount stays a few percent and the market's flow, not the agents' own buying, moves prices.
 */
export const DEMO_LIQUIDITY_USDG = 20_000_000n;

export interface DemoChain {
  readonly node: HardhatNode;
  readonly replica: Replica;
  readonly deployment: AugurDeployment;
  /** Block number the contracts were deployed from (event searches start there). */
  readonly startBlock: number;
  /** Uniswap's QuoterV2 on the replica: measured positions are marked no higher than it quotes. */
  readonly quoter: string;
}

/**
 * Starts a child `hardhat node`, compiles the contracts (a fresh clone has no artifacts and no
 * typechain-types/, which the replica and the deploy import), builds the replica on it and
 * deploys Augur ledger with the real deploy function. Hardhat's runtime reads its network when
 * first loaded, so the environment points `localhost` at the child node before anything imports
 * "hardhat", and every module that needs generated types is imported only after the compile.
 */
export async function startDemoChain(
  deploymentsDir: string,
  log: (line: string) => void,
): Promise<DemoChain> {
  const node = await startHardhatNode({ ownProcessGroup: true });
  try {
    process.env.LOCALHOST_RPC_URL = node.url;
    process.env.HARDHAT_NETWORK = "localhost";
    const hre = (await import("hardhat")).default;
    if (hre.network.name !== "localhost") {
      throw new Error(`hardhat loaded network ${hre.network.name}, expected localhost (already imported?)`);
    }
    log("compiling the contracts (only what changed)…");
    // Typechain writes its types only for contracts it compiles: a lost typechain-types/ needs all.
    const force = !existsSync(join(REPO_ROOT, "typechain-types", "index.ts"));
    await hre.run("compile", { quiet: true, force });
    const startBlock = await node.provider.getBlockNumber();
    const { buildReplica } = await import("../replica/build");
    const { deployAugur } = await import("../../deploy");
    const { readDeployConfig } = await import("../../deploy/config");
    log("building the replica (USDG, stock tokens, Uniswap v3 pools, 48 h of trading)…");
    const replica = await buildReplica({ liquidityUsdg: DEMO_LIQUIDITY_USDG });
    const config = { ...readDeployConfig("localhost"), keeper: nodeAccount(KEEPER_ACCOUNT).address };
    const deployment = await deployAugur(hre, {
      replica,
      config,
      deploymentsDir,
      log: (line) => log(`  ${line}`),
    });
    // Uniswap's own QuoterV2 bytecode (WETH9 unused: the replica trades ERC-20 pairs only).
    const { ContractFactory } = await import("ethers");
    const quoterArtifact = await import(
      "@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json"
    );
    const quoter = await new ContractFactory(
      quoterArtifact.abi,
      quoterArtifact.bytecode,
      replica.deployer,
    ).deploy(await replica.factory.getAddress(), await replica.usdg.getAddress());
    await quoter.waitForDeployment();
    return { node, replica, deployment, startBlock, quoter: await quoter.getAddress() };
  } catch (error) {
    await node.stop();
    throw error;
  }
}
