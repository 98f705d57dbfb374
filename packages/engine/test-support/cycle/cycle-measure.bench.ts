/**
 * `npm run bench -- cycle-measure`: the hourly cycle with the measure step, at BENCH_AGENTS agents
 * (default 10,000) each bound to its own wallet, against a local `hardhat node` (USDG + 4 stock
 * tokens, the replica's Multicall3 at its canonical address; every wallet holds USDG, some hold
 * stocks, some receive a deposit in the measured hour). The store is the cycle bench's season
 * (`bench-season.ts`) of BENCH_HOURS hours of declared records (default 24: seeding 720 hours of
 * 10,000 agents takes well over an hour on a loaded machine; `cycle.bench.ts` times scoring the full
 * season), switched to measured inputs with a wallet per agent. BENCH_DB=<file> seeds that file once
 * and reuses it (the measured cycle adds its rows to it: delete it to measure from scratch).
 *
 * Timed: one cycle at the next hour boundary, measure → anchor → score → risk, each step's time
 * printed; beside it, measured in the same run, the step's chain read alone (`readBalances` of
 * every wallet at the same block) and the same number of empty calls through aggregate3 (the
 * node's floor). Prices come from an in-memory source (the oracle is four reads an hour). The
 * budget is the hour; no timed assertions. `npx hardhat compile` first.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { keccak256, AbiCoder } from "ethers";
import { sql } from "kysely";
import { openStore } from "../../src/store/open";
import { appendOnlyStatements } from "../../src/store/migrations/append-only";
import { AugurScorer } from "../../src/cycle/augur-scorer";
import { runCycle } from "../../src/cycle/run";
import { anchorStep, measureStep, riskStep, scoreStep } from "../../src/cycle/steps";
import { MULTICALL3, multicall3, RpcMeasureChain } from "../../src/measure/chain";
import { chunksOf, mapBounded } from "../../src/measure/pool";
import type { MeasureSource } from "../../src/measure/hour";
import { latestBlock, startBenchChain } from "../measure/bench-chain";
import { BENCH_SEASON, seedBenchSeason } from "./bench-season";
import { FakeKeeper } from "./testing";

const AGENTS = Number(process.env.BENCH_AGENTS ?? 10_000);
const HOURS = Number(process.env.BENCH_HOURS ?? 24);
const HOUR = 3600;
const START = 1_800_000_000 - (1_800_000_000 % HOUR);
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
const wallet = (a: number) => `0x${(0x100000 + a).toString(16).padStart(40, "0")}`;
const coder = AbiCoder.defaultAbiCoder();
/** OpenZeppelin ERC20's `_balances` is its first slot: the storage key of `owner`'s balance. */
const balanceSlot = (owner: string) => keccak256(coder.encode(["address", "uint256"], [owner, 0]));

async function main() {
  console.log(
    `cycle with the measure step: ${AGENTS.toLocaleString("en")} agents with wallets, season of ${HOURS} h; ` +
      `node ${process.version}; load ${load()}`,
  );
  const dir = mkdtempSync(join(tmpdir(), "augur-cycle-measure-bench-"));
  const file = process.env.BENCH_DB ?? join(dir, "augur.sqlite");
  const shape = { agents: AGENTS, hours: HOURS, start: START };
  let wall = performance.now();
  if (!existsSync(file)) {
    const records = await seedBenchSeason(file, shape, () => {});
    console.log(`seeded ${records.toLocaleString("en")} records in ${s(performance.now() - wall)} (untimed)`);
  }
  const store = await openStore({ kind: "sqlite", file });
  const chain = await startBenchChain(100);
  try {
    const { provider } = chain;
    const tokens = chain.tokens.map((t) => t.toLowerCase()); // as the listing and the logs give them
    // The season measures its agents' wallets from now on.
    await store.db
      .updateTable("seasons")
      .set({ inputs: "measured" })
      .where("id", "=", BENCH_SEASON)
      .execute();
    const agents = await store.db.selectFrom("agents").select("id").orderBy("id").execute();
    // Agents rows are append-only: in this scratch file the guard is lifted for the binding and
    // put back (a wallet is bound at registration in the engine).
    await store.db.transaction().execute(async (trx) => {
      await sql`DROP TRIGGER agents_refuse_update`.execute(trx);
      for (const [a, { id }] of agents.entries())
        await trx
          .updateTable("agents")
          .set({ wallet: wallet(a), wallet_proof: "eoa" })
          .where("id", "=", id)
          .execute();
      await appendOnlyStatements("sqlite", "agents")[0]!.execute(trx);
    });
    // Every wallet holds 1,000 USDG (written to the token's storage: 10,000 mints take minutes);
    // one in 50 holds each stock; one in 100 receives a deposit inside the measured hour.
    wall = performance.now();
    const at = START + HOURS * HOUR;
    const word = (n: bigint) => `0x${n.toString(16).padStart(64, "0")}`;
    const writes = agents.flatMap((_, a) => [
      [tokens[0]!, balanceSlot(wallet(a)), word(1_000n * 10n ** 6n)],
      ...(a % 50 === 0 ? tokens.slice(1).map((t) => [t, balanceSlot(wallet(a)), word(3n * 10n ** 18n)]) : []),
    ]);
    await mapBounded(chunksOf(writes, 100), 4, (chunk) =>
      Promise.all(chunk.map((w) => provider.send("hardhat_setStorageAt", w))),
    );
    await provider.send("evm_setNextBlockTimestamp", [at - HOUR / 2]);
    await provider.send("evm_mine", []);
    for (let a = 0; a < agents.length; a += 100)
      await (await chain.usdg.getFunction("mint")(wallet(a), 50n * 10n ** 6n)).wait();
    await provider.send("evm_setNextBlockTimestamp", [at - 10]);
    await provider.send("evm_mine", []);
    const block = await latestBlock(provider);
    const check = await new RpcMeasureChain(provider, undefined, MULTICALL3).readBalances(
      block,
      [wallet(0), wallet(1)],
      tokens,
    );
    if (
      check[0]![0] !== 1_050n * 10n ** 6n ||
      check[1]![0] !== 1_000n * 10n ** 6n ||
      check[0]![1] !== 3n * 10n ** 18n
    )
      throw new Error(`wallets not funded as meant: ${check.join(" | ")}`);
    console.log(
      `funded ${agents.length} wallets in ${s(performance.now() - wall)} (untimed); measuring at block ${block}`,
    );

    const measureChain = new RpcMeasureChain(provider, undefined, MULTICALL3);
    const source: MeasureSource = {
      listing: async () => ({
        usdg: tokens[0]!,
        stocks: tokens
          .slice(1)
          .map((token, i) => ({ token, pool: `0x${(0xb001 + i).toString(16).padStart(40, "0")}` })),
      }),
      priceAt: async (_asset, _at) => ({ price18: 250n * 10n ** 18n }),
    };
    const phases: string[] = [];
    let last = performance.now();
    const cpu = process.cpuUsage();
    wall = performance.now();
    const report = await runCycle({
      store,
      steps: [
        measureStep(measureChain, source),
        anchorStep(new FakeKeeper()),
        scoreStep(new AugurScorer()),
        riskStep(),
      ],
      now: () => at + 60,
      progress: (line) => {
        const now = performance.now();
        phases.push(`${s(now - last)} → ${line}`);
        last = now;
      },
    });
    const cycleMs = performance.now() - wall;
    const used = process.cpuUsage(cpu);
    console.log(
      `cycle at ${at}: wall ${s(cycleMs)} (this process's cpu ${s((used.user + used.system) / 1000)}); ` +
        `${report.scoreRows} score rows, ${report.riskRows} risk rows, head ${report.head.treeSize}`,
    );
    for (const phase of phases) console.log(`    ${phase.slice(0, 160)}`);

    // Beside it: the step's chain read alone, and the node's floor for as many calls.
    const addresses = agents.map((_, a) => wallet(a));
    let start = performance.now();
    await measureChain.readBalances(block, addresses, tokens);
    const readMs = performance.now() - start;
    const calls = addresses.length * tokens.length;
    const empty = `0x${"ee".repeat(20)}`;
    const data = (n: number) =>
      multicall3.encodeFunctionData("aggregate3", [
        Array.from({ length: n }, () => ({ target: empty, allowFailure: true, callData: "0x" })),
      ]);
    const chunks = chunksOf(
      Array.from({ length: calls }, (_, i) => i),
      1_000,
    );
    start = performance.now();
    await mapBounded(chunks, 4, (c) =>
      provider.send("eth_call", [{ to: MULTICALL3, data: data(c.length) }, `0x${block.toString(16)}`]),
    );
    const bareMs = performance.now() - start;
    console.log(
      `  baseline, readBalances alone (${calls} balances): ${s(readMs)}; empty aggregate3 calls: ${s(bareMs)}`,
    );
    console.log(
      `  cycle = ${(cycleMs / readMs).toFixed(2)}× the read alone; budget 3600 s: ${cycleMs <= 3_600_000 ? "within" : "OVER"}; load at the end ${load()}`,
    );
  } finally {
    await chain.node.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
