import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Contract, ContractFactory, JsonRpcProvider, Wallet } from "ethers";
import { seal, type Hex32 } from "@augur/scorer";
import { REPO_ROOT } from "../../src/chain/node";
import { currentHead } from "../../src/keeper/anchor-head";
import type { Store } from "../../src/store/open";

export { REPO_ROOT, startHardhatNode, type HardhatNode } from "../../src/chain/node";

/** Hardhat's published development accounts (never funded anywhere real). */
export const HARDHAT_KEYS = [
  "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
  "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
  "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
] as const;

/** Deploys a compiled contract (`npx hardhat compile` first) from Hardhat account 0. */
export async function deployArtifact(
  provider: JsonRpcProvider,
  path: string,
  args: unknown[],
): Promise<Contract> {
  const file = join(REPO_ROOT, "artifacts/contracts", path);
  const artifact = JSON.parse(readFileSync(file, "utf8")) as { abi: unknown[]; bytecode: string };
  const admin = new Wallet(HARDHAT_KEYS[0], provider);
  const factory = new ContractFactory(artifact.abi as never, artifact.bytecode, admin);
  const contract = await factory.deploy(...args);
  await contract.waitForDeployment();
  return new Contract(await contract.getAddress(), artifact.abi as never, admin);
}

/** Deploys AnchorRegistry with Hardhat account 0 as admin and `keeper` holding KEEPER_ROLE. */
export async function deployRegistry(provider: JsonRpcProvider, keeper: string): Promise<string> {
  const admin = new Wallet(HARDHAT_KEYS[0]).address;
  const contract = await deployArtifact(provider, "AnchorRegistry.sol/AnchorRegistry.json", [admin, keeper]);
  return (await contract.getAddress()).toLowerCase();
}

/** Appends `count` small records' seals to the store's log (a stand-in for ingested records). */
export async function appendSeals(store: Store, tag: string, count: number): Promise<Hex32[]> {
  const seals = Array.from({ length: count }, (_, i) => seal({ tag, i }));
  await store.db.transaction().execute(async (trx) => {
    await store.log.lockForAppend(trx);
    await store.log.append(trx, seals, 1_800_000_000);
  });
  return seals;
}

/** The log's current head. */
export async function headOf(store: Store): Promise<{ treeSize: number; root: Hex32 }> {
  return currentHead(store);
}
