/**
 * `npm run bench -- read-balances`: measuring's chain read at one block — `readBalances` of
 * BENCH_WALLETS wallets (default 10,000) × (USDG + 4 stock tokens) on a local `hardhat node`
 * (a separate process, reached over JSON-RPC like a real node), printed beside the same number of
 * bare calls (to an account without code: the node's floor per call) sent the same way. Two ways:
 * Multicall3's `aggregate3` at its canonical address (500 balances an `eth_call`; the bench puts a
 * replica's own aggregator there, `contracts/test/ReplicaMulticall3.sol`), and one `eth_call` per
 * balance in JSON-RPC batches of BENCH_BATCH (default 100, ethers' default). The budget is 10 s.
 * `npx hardhat compile` first (the tokens are deployed from artifacts/).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ContractFactory, JsonRpcProvider, NonceManager, Wallet, type Contract } from "ethers";
import { CALLS_PER_AGGREGATE, MULTICALL3, multicall3, RpcMeasureChain } from "../../src/measure/chain";
import { HARDHAT_KEYS, REPO_ROOT, startHardhatNode } from "../keeper/testing";

const WALLETS = Number(process.env.BENCH_WALLETS ?? 10_000);
const BATCH = Number(process.env.BENCH_BATCH ?? 100);
/** One eth_call per balance is far slower: it reads this many wallets (10,000 of them ran past ethers' 5-minute request timeout on a loaded machine). */
const RPC_WALLETS = Math.min(WALLETS, Number(process.env.BENCH_RPC_WALLETS ?? 1_000));
const BUDGET_MS = 10_000;

/** Deploys a compiled test contract from one nonce-managed deployer (deploys and mints in a row). */
async function deploy(deployer: NonceManager, path: string, args: unknown[]): Promise<Contract> {
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

async function main() {
  const node = await startHardhatNode();
  try {
    const provider = new JsonRpcProvider(node.url, 31337, { staticNetwork: true, batchMaxCount: BATCH });
    const deployer = new NonceManager(new Wallet(HARDHAT_KEYS[0], provider));
    const usdg = await deploy(deployer, "test/MockUSDG.sol/MockUSDG.json", []);
    const owner = await deployer.getAddress();
    const stocks = [];
    for (const symbol of ["TSLA", "AAPL", "NVDA", "AMZN"])
      stocks.push(
        await deploy(deployer, "test/MockStockToken.sol/MockStockToken.json", [symbol, symbol, owner]),
      );
    const tokens = [await usdg.getAddress(), ...(await Promise.all(stocks.map((s) => s.getAddress())))];
    const wallets = Array.from({ length: WALLETS }, (_, i) => `0x${(i + 1).toString(16).padStart(40, "0")}`);
    // Some wallets hold something, so the reads are not all of empty slots.
    for (const token of [usdg, ...stocks])
      for (let i = 0; i < 20; i++)
        await (await token.getFunction("mint")(wallets[i * 97]!, 10n ** 20n)).wait();
    // Multicall3's aggregate3 at its canonical address (the replica's own aggregator, written here).
    const probe = await deploy(deployer, "test/ReplicaMulticall3.sol/ReplicaMulticall3.json", []);
    await provider.send("hardhat_setCode", [MULTICALL3, await provider.getCode(await probe.getAddress())]);
    await provider.send("evm_mine", []); // state set by hardhat_setCode shows from the next block
    // Straight from the node: ethers' getBlockNumber() may answer from its cache, the block before
    // the code was set, where aggregate3 answers "0x".
    const block = Number(await provider.send("eth_blockNumber", []));
    const tag = `0x${block.toString(16)}`;
    if ((await provider.send("eth_getCode", [MULTICALL3, tag])) === "0x")
      throw new Error(`no aggregator at ${MULTICALL3} in block ${block}`);
    const empty = Wallet.createRandom().address;
    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    console.log(
      `readBalances: ${WALLETS} wallets × ${tokens.length} tokens = ${WALLETS * tokens.length} balanceOf at block ${block}`,
    );

    for (const [label, multicall, count] of [
      [`aggregate3, ${CALLS_PER_AGGREGATE} a call`, MULTICALL3, WALLETS],
      [`one eth_call each, JSON-RPC batches of ${BATCH}`, undefined, RPC_WALLETS],
    ] as const) {
      const calls = count * tokens.length;
      const rate = (ms: number) => `${Math.round(calls / (ms / 1000))} balances/s`;
      const chain = new RpcMeasureChain(provider, undefined, multicall);
      await chain.readBalances(block, wallets.slice(0, 100), tokens); // warm-up
      let start = performance.now();
      const balances = await chain.readBalances(block, wallets.slice(0, count), tokens);
      const readMs = performance.now() - start;
      const held = balances.flat().filter((b) => b > 0n).length;
      // The floor: the same number of calls that do nothing (an account without code), sent the same way.
      start = performance.now();
      if (multicall) {
        const chunk = Array.from({ length: CALLS_PER_AGGREGATE }, () => ({
          target: empty,
          allowFailure: true,
          callData: "0x",
        }));
        const data = multicall3.encodeFunctionData("aggregate3", [chunk]);
        await Promise.all(
          Array.from({ length: Math.ceil(calls / CALLS_PER_AGGREGATE) }, () =>
            provider.send("eth_call", [{ to: MULTICALL3, data }, tag]),
          ),
        );
      } else {
        await Promise.all(
          Array.from({ length: calls }, () => provider.send("eth_call", [{ to: empty, data: "0x" }, tag])),
        );
      }
      const bareMs = performance.now() - start;
      console.log(`  ${label}: ${count} wallets, ${calls} balances`);
      console.log(`    readBalances  ${s(readMs)}  (${rate(readMs)}; ${held} non-zero balances read)`);
      console.log(`    bare calls    ${s(bareMs)}  (${rate(bareMs)}), the same number, sent the same way`);
      console.log(
        `    ratio ${(readMs / bareMs).toFixed(2)}× the bare floor; budget ${s(BUDGET_MS)}: ${readMs <= BUDGET_MS ? "within" : "OVER"}`,
      );
    }
    provider.destroy();
  } finally {
    await node.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
