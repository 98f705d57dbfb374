/**
 * `npm run bench -- read-balances`: measuring's chain read at one block — `readBalances` of
 * BENCH_WALLETS wallets (default 10,000) × (USDG + 4 stock tokens) on a local `hardhat node`
 * (a separate process, reached over JSON-RPC like a real node), printed beside the same number of
 * bare calls (to an account without code: the node's floor per call) cut and sent the same way,
 * through the same bounded pool. Two ways: Multicall3's `aggregate3` at its canonical address
 * (BENCH_CHUNK balances an `eth_call`, default the engine's; the bench puts the replica's own
 * aggregator there, `contracts/test/ReplicaMulticall3.sol`) and one `eth_call` per balance in
 * JSON-RPC batches of BENCH_BATCH (default 100, ethers' default); BENCH_CONCURRENCY requests in
 * flight (default the engine's). Then where the time goes: one aggregate alone (the node's own time
 * per balanceOf and per empty call) and the client's decoding of one answer, by hand and by ethers'
 * generic coder. The budget is 10 s. `npx hardhat compile` first (the tokens are deployed from artifacts/).
 */
import { loadavg } from "node:os";
import { Wallet } from "ethers";
import { DEFAULT_BALANCE_READS, MULTICALL3, multicall3, RpcMeasureChain } from "../../src/measure/chain";
import { decodeBalanceAggregate, encodeBalanceAggregate } from "../../src/chain/abi/multicall3";
import { chunksOf, mapBounded } from "../../src/measure/pool";
import { latestBlock, nodeCpuMs, startBenchChain } from "./bench-chain";

const WALLETS = Number(process.env.BENCH_WALLETS ?? 10_000);
const BATCH = Number(process.env.BENCH_BATCH ?? DEFAULT_BALANCE_READS.callsPerBatch);
const CHUNK = Number(process.env.BENCH_CHUNK ?? DEFAULT_BALANCE_READS.callsPerAggregate);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? DEFAULT_BALANCE_READS.concurrency);
/** One eth_call per balance is far slower: it reads this many wallets. */
const RPC_WALLETS = Math.min(WALLETS, Number(process.env.BENCH_RPC_WALLETS ?? 1_000));
const BUDGET_MS = 10_000;
/** CPU time since `from`, of this process (the client) and of the node. */
const cpuSince = (from: { client: NodeJS.CpuUsage; node: number }) => {
  const used = process.cpuUsage(from.client);
  return { client: (used.user + used.system) / 1000, node: nodeCpuMs() - from.node };
};
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

async function main() {
  const { node, provider, usdg, stocks, tokens } = await startBenchChain(BATCH);
  try {
    const wallets = Array.from({ length: WALLETS }, (_, i) => `0x${(i + 1).toString(16).padStart(40, "0")}`);
    // Some wallets hold something, so the reads are not all of empty slots.
    for (const token of [usdg, ...stocks])
      for (let i = 0; i < 20; i++)
        await (await token.getFunction("mint")(wallets[i * 97]!, 10n ** 20n)).wait();
    const block = await latestBlock(provider);
    const tag = `0x${block.toString(16)}`;
    if ((await provider.send("eth_getCode", [MULTICALL3, tag])) === "0x")
      throw new Error(`no aggregator at ${MULTICALL3} in block ${block}`);
    const empty = Wallet.createRandom().address;
    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    const us = (ms: number, n: number) => `${Math.round((ms * 1000) / n)} µs`;
    console.log(
      `readBalances: ${WALLETS} wallets × ${tokens.length} tokens = ${WALLETS * tokens.length} balanceOf at block ${block}; ` +
        `${CONCURRENCY} requests in flight; node ${process.version}; load ${load()}`,
    );

    for (const [label, multicall, count, size] of [
      [`aggregate3, ${CHUNK} balances an eth_call`, MULTICALL3, WALLETS, CHUNK],
      [`one eth_call each, JSON-RPC batches of ${BATCH}`, undefined, RPC_WALLETS, BATCH],
    ] as const) {
      const calls = count * tokens.length;
      const rate = (ms: number) => `${Math.round(calls / (ms / 1000))} balances/s`;
      const reads = { callsPerAggregate: CHUNK, callsPerBatch: BATCH, concurrency: CONCURRENCY };
      const chain = new RpcMeasureChain(provider, undefined, multicall, reads);
      await chain.readBalances(block, wallets.slice(0, 100), tokens); // warm-up
      let start = performance.now();
      let cpu = { client: process.cpuUsage(), node: nodeCpuMs() };
      const balances = await chain.readBalances(block, wallets.slice(0, count), tokens);
      const readMs = performance.now() - start;
      const readCpu = cpuSince(cpu);
      const held = balances.flat().filter((b) => b > 0n).length;
      // The floor: the same number of calls that do nothing (an account without code), cut into
      // the same requests and sent through the same pool.
      const chunks = chunksOf(
        Array.from({ length: calls }, (_, i) => i),
        size,
      );
      start = performance.now();
      cpu = { client: process.cpuUsage(), node: nodeCpuMs() };
      if (multicall) {
        const bare = (n: number) =>
          multicall3.encodeFunctionData("aggregate3", [
            Array.from({ length: n }, () => ({ target: empty, allowFailure: true, callData: "0x" })),
          ]);
        const data = new Map(chunks.map((c) => [c.length, bare(c.length)]));
        await mapBounded(chunks, CONCURRENCY, (c) =>
          provider.send("eth_call", [{ to: MULTICALL3, data: data.get(c.length) }, tag]),
        );
      } else {
        await mapBounded(chunks, CONCURRENCY, (c) =>
          Promise.all(c.map(() => provider.send("eth_call", [{ to: empty, data: "0x" }, tag]))),
        );
      }
      const bareMs = performance.now() - start;
      const bareCpu = cpuSince(cpu);
      console.log(`  ${label}: ${count} wallets, ${calls} balances`);
      console.log(
        `    readBalances  ${s(readMs)}  (${rate(readMs)}; ${held} non-zero balances read); cpu: node ${s(readCpu.node)}, client ${s(readCpu.client)}`,
      );
      console.log(
        `    bare calls    ${s(bareMs)}  (${rate(bareMs)}), the same number, sent the same way; cpu: node ${s(bareCpu.node)}, client ${s(bareCpu.client)}`,
      );
      console.log(
        `    ratio ${(readMs / bareMs).toFixed(2)}× the bare floor; budget ${s(BUDGET_MS)}: ${readMs <= BUDGET_MS ? "within" : "OVER"}`,
      );
    }

    // Where the time goes: one aggregate alone, nothing else in flight.
    const one = wallets
      .slice(0, Math.ceil(CHUNK / tokens.length))
      .flatMap((owner) => tokens.map((token) => ({ token, owner })))
      .slice(0, CHUNK);
    const timed = async (data: string) => {
      const start = performance.now();
      const raw = (await provider.send("eth_call", [{ to: MULTICALL3, data }, tag])) as string;
      return { ms: performance.now() - start, raw };
    };
    const balanceCall = await timed(encodeBalanceAggregate(one));
    const emptyCall = await timed(
      multicall3.encodeFunctionData("aggregate3", [
        one.map(() => ({ target: empty, allowFailure: true, callData: "0x" })),
      ]),
    );
    let start = performance.now();
    decodeBalanceAggregate(balanceCall.raw, one.length);
    const handMs = performance.now() - start;
    start = performance.now();
    multicall3.decodeFunctionResult("aggregate3", balanceCall.raw);
    const ethersMs = performance.now() - start;
    const total = WALLETS * tokens.length;
    console.log(`  one aggregate3 of ${one.length} calls alone (round trip):`);
    console.log(
      `    balanceOf ${s(balanceCall.ms)} (${us(balanceCall.ms, one.length)} a call; ${total} of them: ${s((balanceCall.ms * total) / one.length)})`,
    );
    console.log(
      `    empty     ${s(emptyCall.ms)} (${us(emptyCall.ms, one.length)} a call; ${total} of them: ${s((emptyCall.ms * total) / one.length)})`,
    );
    console.log(
      `    decoding its answer: by hand ${handMs.toFixed(1)} ms, ethers' coder ${ethersMs.toFixed(1)} ms (${(ethersMs / handMs).toFixed(0)}×)`,
    );
    console.log(`  load at the end ${load()}`);
    provider.destroy();
  } finally {
    await node.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
