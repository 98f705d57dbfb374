/**
 * `npm run bench -- carried-balances`: measuring 10,000 wallets × (USDG + 4 stocks) at one block
 * the way the cycle does, with balances carried from Transfer logs (`measure/carried.ts`), on a
 * local `hardhat node` (its own process, over JSON-RPC). The wallets are first read in full (their
 * first measure); then one hour of activity is mined (BENCH_TRANSFERS transfers into measured
 * wallets, BENCH_NOISE between other accounts, spread over 14,400 blocks: an hour of 250 ms
 * blocks), and the hour is measured carried: every Transfer of the 5 tokens read by block range,
 * applied, and `balanceOf` read for the day's rotation. Printed beside the same number of bare
 * `eth_call`s (50,000 empty calls through `aggregate3`, cut and sent as `readBalances` sends them),
 * wall and CPU (node, client). The carried result is checked against `readBalances` for every
 * wallet the hour touched and a sample of the rest. `npx hardhat compile` first.
 */
import { loadavg } from "node:os";
import { Wallet, type Contract } from "ethers";
import { readCarried } from "../../src/measure/carried";
import { DEFAULT_BALANCE_READS, MULTICALL3, multicall3, RpcMeasureChain } from "../../src/measure/chain";
import { chunksOf, mapBounded } from "../../src/measure/pool";
import { deploy, latestBlock, nodeCpuMs, startBenchChain } from "./bench-chain";

const WALLETS = Number(process.env.BENCH_WALLETS ?? 10_000);
const TRANSFERS = Number(process.env.BENCH_TRANSFERS ?? 2_500);
const NOISE = Number(process.env.BENCH_NOISE ?? 1_000);
const BLOCKS_AN_HOUR = 14_400;
const BUDGET_MS = 10_000;
/** Transfers a transaction: 250 need 20 M gas, over the node’s 16.7 M transaction cap. */
const PER_TX = 150;
const hex40 = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

/** Wall and CPU (this process, the node) of `fn`. */
async function timed<T>(fn: () => Promise<T>) {
  const [start, client, node] = [performance.now(), process.cpuUsage(), nodeCpuMs()];
  const value = await fn();
  const used = process.cpuUsage(client);
  const cpu = `cpu: node ${s(nodeCpuMs() - node)}, client ${s((used.user + used.system) / 1000)}`;
  return { value, ms: performance.now() - start, cpu };
}

async function main() {
  const bench = await startBenchChain(DEFAULT_BALANCE_READS.callsPerBatch);
  const { node, provider, usdg, stocks, tokens, deployer } = bench;
  try {
    const me = await deployer.getAddress();
    const wallets = Array.from({ length: WALLETS }, (_, i) => hex40(0x10000 + i));
    const batcher = await deploy(deployer, "test/TokenBatcher.sol/TokenBatcher.json", []);
    const contracts: Contract[] = [usdg, ...stocks];
    for (const token of contracts) {
      await (await token.getFunction("mint")(me, 10n ** 30n)).wait();
      await (await token.getFunction("approve")(await batcher.getAddress(), 10n ** 30n)).wait();
    }
    /** Sends `[to, token index]` transfers from the deployer, PER_TX a transaction. */
    const send = async (moves: ReadonlyArray<readonly [string, number]>) => {
      for (const [k, token] of tokens.entries()) {
        const mine = moves.filter(([, t]) => t === k).map(([to]) => to);
        for (const part of chunksOf(mine, PER_TX))
          await (
            await batcher.getFunction("send")(
              token,
              part,
              part.map((_, i) => BigInt(1_000 + i)),
            )
          ).wait();
      }
    };
    // Before the first measure: a fifth of the wallets hold something.
    await send(wallets.filter((_, i) => i % 5 === 0).map((w, i) => [w, i % tokens.length] as const));
    const chain = new RpcMeasureChain(provider, undefined, MULTICALL3);
    const first = await chain.block(await latestBlock(provider));
    const at = first.timestamp;
    console.log(
      `carried balances: ${WALLETS} wallets × ${tokens.length} tokens = ${WALLETS * tokens.length} balances; node ${process.version}; load ${load()}`,
    );
    const full = await timed(() => readCarried(chain, undefined, first, at, wallets, tokens));
    console.log(`  first measure (every balance read, aggregate3): ${s(full.ms)}; ${full.cpu}`);

    // One hour: transfers into measured wallets and between other accounts, over an hour of blocks.
    const touched = Array.from(
      { length: TRANSFERS },
      (_, i) => [wallets[(i * 7919) % WALLETS]!, i % 5] as const,
    );
    const noise = Array.from({ length: NOISE }, (_, i) => [hex40(0x900000 + i), i % 5] as const);
    await provider.send("hardhat_mine", [`0x${(BLOCKS_AN_HOUR / 2).toString(16)}`]);
    await send([...touched.slice(0, TRANSFERS / 2), ...noise]);
    await provider.send("hardhat_mine", [`0x${(BLOCKS_AN_HOUR / 2).toString(16)}`]);
    await send(touched.slice(TRANSFERS / 2));
    const pinned = await chain.block(await latestBlock(provider));
    const hour = at + 3600;
    const carried = await timed(() => readCarried(chain, full.value.state, pinned, hour, wallets, tokens));
    const { value: read } = carried;
    console.log(
      `  one hour later (blocks ${first.number + 1}..${pinned.number}, ${TRANSFERS} transfers into measured wallets, ${NOISE} between others):`,
    );
    console.log(
      `    carried measure  ${s(carried.ms)}  (${read.transfers?.length} transfers applied, ${read.checked} wallets read with balanceOf for the rotation, ${read.mismatches.length} mismatches); ${carried.cpu}`,
    );

    // The floor: the same number of calls as a full read, empty, cut and sent as readBalances sends them.
    const empty = Wallet.createRandom().address;
    const tag = `0x${pinned.number.toString(16)}`;
    const size = DEFAULT_BALANCE_READS.callsPerAggregate;
    const chunks = chunksOf(
      Array.from({ length: WALLETS * tokens.length }, (_, i) => i),
      size,
    );
    const data = new Map(
      chunks.map((c) => [
        c.length,
        multicall3.encodeFunctionData("aggregate3", [
          c.map(() => ({ target: empty, allowFailure: true, callData: "0x" })),
        ]),
      ]),
    );
    const bare = await timed(() =>
      mapBounded(chunks, DEFAULT_BALANCE_READS.concurrency, (c) =>
        provider.send("eth_call", [{ to: MULTICALL3, data: data.get(c.length) }, tag]),
      ),
    );
    console.log(
      `    bare calls       ${s(bare.ms)}  (${WALLETS * tokens.length} empty calls, aggregate3 of ${size}, ${DEFAULT_BALANCE_READS.concurrency} in flight); ${bare.cpu}`,
    );
    console.log(
      `    ratio ${(carried.ms / bare.ms).toFixed(2)}× the bare floor; budget ${s(BUDGET_MS)}: ${carried.ms <= BUDGET_MS ? "within" : "OVER"}`,
    );

    // Proof: every touched wallet and a sample of the rest against balanceOf at the pinned block.
    const sample = [...new Set([...touched.map(([w]) => w), ...wallets.filter((_, i) => i % 50 === 1)])];
    const truth = await chain.readBalances(pinned.number, sample, tokens);
    const row = new Map(wallets.map((w, i) => [w, i]));
    const wrong = sample.filter((w, k) => read.balances[row.get(w)!]!.some((b, t) => b !== truth[k]![t]));
    console.log(`  checked against balanceOf: ${sample.length} wallets, ${wrong.length} differ`);
    console.log(`  load at the end ${load()}`);
    provider.destroy();
    if (wrong.length > 0) process.exitCode = 1;
  } finally {
    await node.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
