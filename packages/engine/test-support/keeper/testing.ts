import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  AbiCoder,
  Contract,
  ContractFactory,
  JsonRpcProvider,
  keccak256,
  MaxUint256,
  toBeHex,
  Wallet,
  zeroPadValue,
  type Log,
  type LogDescription,
} from "ethers";
import { seal, type Hex32 } from "@augur/scorer";
import { REPO_ROOT } from "../../src/chain/node";
import { currentHead } from "../../src/keeper/anchor-head";
import type { Store } from "../../src/store/open";

export { REPO_ROOT, startHardhatNode, type HardhatNode } from "../../src/chain/node";
export { sharedHardhatNode } from "../chain/shared-node";

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

/** A CallLedger on a mock USDG and a mock oracle (pushed prices), window 3600 allowed, min stake 100 USDG. */
export interface TestLedger {
  readonly provider: JsonRpcProvider;
  readonly usdg: Contract;
  readonly oracle: Contract;
  readonly ledger: Contract;
  /** Lowercase. */
  readonly address: string;
}

export const TEST_MIN_STAKE = 100_000_000n;
export const TEST_WINDOW = 3600;

const mined = async (c: Contract, fn: string, ...args: unknown[]) =>
  (await c.getFunction(fn).send(...args)).wait();

export async function deployTestLedger(provider: JsonRpcProvider): Promise<TestLedger> {
  const admin = new Wallet(HARDHAT_KEYS[0]).address;
  const usdg = await deployArtifact(provider, "test/MockUSDG.sol/MockUSDG.json", []);
  const oracle = await deployArtifact(provider, "test/MockPriceOracle.sol/MockPriceOracle.json", []);
  const ledger = await deployArtifact(provider, "CallLedger.sol/CallLedger.json", [
    await usdg.getAddress(),
    await oracle.getAddress(),
    TEST_MIN_STAKE,
    admin,
  ]);
  await mined(ledger, "setWindow", TEST_WINDOW, true);
  return { provider, usdg, oracle, ledger, address: (await ledger.getAddress()).toLowerCase() };
}

/** Gives `agent` gas and USDG and stakes the ledger's minimum for it. */
export async function stakeTestAgent(t: TestLedger, agent: Wallet): Promise<void> {
  await t.provider.send("hardhat_setBalance", [agent.address, "0xde0b6b3a7640000"]);
  await mined(t.usdg, "mint", agent.address, TEST_MIN_STAKE * 10n);
  const signer = agent.connect(t.provider);
  await mined(t.usdg.connect(signer) as Contract, "approve", t.address, MaxUint256);
  await mined(t.ledger.connect(signer) as Contract, "deposit", TEST_MIN_STAKE);
}

/** One agent's call: commit now; `reveal` it later (window 3600). */
export async function commitTestCall(
  t: TestLedger,
  agent: Wallet,
  asset: string,
  direction: 1 | 2,
  confidenceBps: number,
  salt: number,
): Promise<{ id: bigint; reveal: () => Promise<void> }> {
  const saltHex = zeroPadValue(toBeHex(salt), 32);
  const commitment = keccak256(
    AbiCoder.defaultAbiCoder().encode(
      ["uint256", "address", "address", "address", "uint32", "uint8", "uint16", "bytes32"],
      [31337, t.address, agent.address, asset, TEST_WINDOW, direction, confidenceBps, saltHex],
    ),
  );
  const asAgent = t.ledger.connect(agent.connect(t.provider)) as Contract;
  const receipt = await mined(asAgent, "commit", commitment);
  const log = receipt!.logs
    .map((l: Log) => t.ledger.interface.parseLog(l))
    .find((l: LogDescription | null) => l?.name === "Committed");
  const id = log!.args.getValue("callId") as bigint;
  return {
    id,
    reveal: async () => {
      await mined(asAgent, "reveal", id, asset, TEST_WINDOW, direction, confidenceBps, saltHex);
    },
  };
}
