/**
 * The chain the measuring benchmarks read: a `hardhat node` in its own process with USDG and four
 * stock tokens deployed from artifacts/ (`npx hardhat compile` first) and the replica's aggregator
 * installed at Multicall3's canonical address.
 */
import { readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import { join } from "node:path";
import { ContractFactory, JsonRpcProvider, NonceManager, Wallet, type Contract } from "ethers";
import { MULTICALL3 } from "../../src/measure/chain";
import { HARDHAT_KEYS, REPO_ROOT, startHardhatNode, type HardhatNode } from "../keeper/testing";

export interface BenchChain {
  readonly node: HardhatNode;
  readonly provider: JsonRpcProvider;
  readonly usdg: Contract;
  readonly stocks: readonly Contract[];
  /** USDG first, then the stocks. */
  readonly tokens: readonly string[];
  /** The account that deployed the tokens (owns the stocks), nonce-managed. */
  readonly deployer: NonceManager;
}

/** Deploys a compiled test contract from one nonce-managed deployer (deploys and mints in a row). */
export async function deploy(deployer: NonceManager, path: string, args: unknown[]): Promise<Contract> {
  const artifact = JSON.parse(readFileSync(join(REPO_ROOT, "artifacts/contracts", path), "utf8")) as {
    abi: unknown[];
    bytecode: string;
  };
  const contract = await new ContractFactory(artifact.abi as never, artifact.bytecode, deployer).deploy(
    ...args,
  );
  await contract.waitForDeployment();
  return contract as Contract;
}

/** Starts the node and deploys; `batchMaxCount`: the provider's JSON-RPC batch size. */
export async function startBenchChain(batchMaxCount: number): Promise<BenchChain> {
  // Node ≥ 19 keeps idle sockets open, and the node's HTTP server closes one after 5 s idle: with
  // requests that take seconds each, a request sent on a socket as the server closes it fails
  // with "socket hang up" (it did, at 2,000 wallets). A connection per request avoids the race.
  http.globalAgent = new http.Agent({ keepAlive: false });
  // Starting takes well over 90 s on a loaded machine (the config is compiled on the fly).
  const node = await startHardhatNode({ startTimeoutMs: 600_000 });
  try {
    const provider = new JsonRpcProvider(node.url, 31337, { staticNetwork: true, batchMaxCount });
    const deployer = new NonceManager(new Wallet(HARDHAT_KEYS[0], provider));
    const usdg = await deploy(deployer, "test/MockUSDG.sol/MockUSDG.json", []);
    const owner = await deployer.getAddress();
    const stocks = [];
    for (const symbol of ["TSLA", "AAPL", "NVDA", "AMZN"])
      stocks.push(
        await deploy(deployer, "test/MockStockToken.sol/MockStockToken.json", [symbol, symbol, owner]),
      );
    const tokens = [await usdg.getAddress(), ...(await Promise.all(stocks.map((s) => s.getAddress())))];
    // Multicall3's aggregate3 at its canonical address (the replica's own aggregator).
    const probe = await deploy(deployer, "test/ReplicaMulticall3.sol/ReplicaMulticall3.json", []);
    await provider.send("hardhat_setCode", [MULTICALL3, await provider.getCode(await probe.getAddress())]);
    await provider.send("evm_mine", []); // state set by hardhat_setCode shows from the next block
    return { node, provider, usdg, stocks, tokens, deployer };
  } catch (error) {
    await node.stop();
    throw error;
  }
}

/** The node's latest block, asked of the node (ethers' getBlockNumber() may answer from its cache). */
export async function latestBlock(provider: JsonRpcProvider): Promise<number> {
  return Number(await provider.send("eth_blockNumber", []));
}

/**
 * CPU time (user + system, ms) used so far by this process's `hardhat node` child (Linux /proc;
 * NaN elsewhere). On a shared machine CPU time, not wall time, is the node's fair figure.
 */
export function nodeCpuMs(): number {
  try {
    const ticks = 100; // USER_HZ on Linux
    for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) !== process.pid) continue; // fields[1]: the parent's pid
      if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("hardhat")) continue;
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticks; // utime + stime
    }
  } catch {
    // Not Linux: no figure.
  }
  return Number.NaN;
}
