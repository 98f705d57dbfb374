import { keccak256, type ContractTransactionResponse } from "ethers";
import { LOCAL_NETWORKS } from "./config";
import type { DeployContext } from "./context";
import { jsonArgs, type DeploymentRecord } from "./record";

type Name = keyof DeploymentRecord["contracts"];

export class DeployDriftError extends Error {
  override readonly name = "DeployDriftError";
  constructor(contract: string, address: string, reason: string) {
    super(
      `${contract} at ${address} no longer matches this deploy (${reason}); a new one would start an empty ` +
        `ledger/log, so it is not replaced on a live network: rerun with --redeploy ${contract} if that is intended`,
    );
  }
}

/**
 * Deploys `name` unless the record holds one at an address with code, the same creation bytecode
 * hash and the same constructor arguments: then it is reused and nothing is sent. When the record
 * no longer matches, a local network simply deploys anew; a live one refuses unless asked.
 */
export async function deployOnce(
  context: DeployContext,
  name: Name,
  args: readonly unknown[],
): Promise<string> {
  const { hre, record, deployer } = context;
  const artifact = await hre.artifacts.readArtifact(name);
  const bytecodeHash = keccak256(artifact.bytecode);
  const wanted = jsonArgs(args);
  const previous = record.contracts[name];
  if (previous) {
    const code = await hre.ethers.provider.getCode(previous.address);
    const reasons = [
      code === "0x" ? "no code at the address" : "",
      previous.bytecodeHash !== bytecodeHash ? "bytecode changed" : "",
      JSON.stringify(previous.args) !== JSON.stringify(wanted) ? "constructor arguments changed" : "",
    ].filter(Boolean);
    if (reasons.length === 0) {
      context.log(`  ${name}: reusing ${previous.address}`);
      return previous.address;
    }
    const live = !LOCAL_NETWORKS.has(context.config.network);
    if (live && code !== "0x" && !context.redeploy.has(name)) {
      throw new DeployDriftError(name, previous.address, reasons.join(", "));
    }
    context.log(`  ${name}: redeploying (${reasons.join(", ")})`);
  }
  const factory = await hre.ethers.getContractFactory(name, deployer);
  const contract = await factory.deploy(...args);
  const receipt = await contract.deploymentTransaction()!.wait();
  const address = await contract.getAddress();
  context.transactions += 1;
  record.contracts[name] = {
    address,
    args: wanted,
    bytecodeHash,
    txHash: receipt!.hash,
    blockNumber: receipt!.blockNumber,
  };
  context.deployed.push(name);
  context.save();
  context.log(`  ${name}: deployed at ${address} (tx ${receipt!.hash})`);
  return address;
}

/** Sends one configuration transaction and counts it. */
export async function configure(
  context: DeployContext,
  what: string,
  send: () => Promise<ContractTransactionResponse>,
): Promise<void> {
  const response = await send();
  await response.wait();
  context.transactions += 1;
  context.log(`  ${what} (tx ${response.hash})`);
}
