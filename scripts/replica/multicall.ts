import { artifacts, ethers } from "hardhat";
import { MULTICALL3_ADDRESS } from "../../packages/engine/src/chain/abi/multicall3";

/**
 * Puts Multicall3 at its canonical address on the current Hardhat network, as Robinhood Chain has it
 * (config/robinhood.json, `multicall3`): the runtime code of our own ReplicaMulticall3, compiled here,
 * written with `hardhat_setCode`. Where code is already there (a fork of a chain that has Multicall3,
 * or a second build on the same node) it is left alone. Returns whether it installed the code.
 */
export async function installMulticall3(): Promise<boolean> {
  if ((await ethers.provider.getCode(MULTICALL3_ADDRESS)) !== "0x") return false;
  const { deployedBytecode } = await artifacts.readArtifact("ReplicaMulticall3");
  await ethers.provider.send("hardhat_setCode", [MULTICALL3_ADDRESS, deployedBytecode]);
  return true;
}
