/**
 * The process the crash-safety test kills (crash.test.ts): one round of the engine's work —
 * ingest the round's snapshot, then, as `augur cycle` does, poll the registry's follower (which may
 * store an anchor row a killed keeper never recorded) and run one hourly cycle with the real keeper — with the crash points
 * armed by AUGUR_CRASH_AT. Arguments: <sqlite file> <rpc url> <registry> <round> [<record>]: the
 * snapshot taken `record` seconds into the round's last 100 (a new head each), or, with "none",
 * no new record (a restart that must finish what a kill left without a new head to anchor).
 */
import { JsonRpcProvider, Wallet } from "ethers";
import { CountingScorer } from "../cycle/testing";
import { runCycle } from "../../src/cycle/run";
import { anchorStep, scoreStep } from "../../src/cycle/steps";
import { ingestRecord } from "../../src/records/ingest";
import { sign, snapshot, TEST_CHAIN_ID, TEST_NOW, testWallet } from "../records/testing";
import { openStore } from "../../src/store/open";
import { crashPoint } from "../../src/keeper/crash";
import { ChainKeeper } from "../../src/keeper/keeper";
import { RegistryReader } from "../../src/keeper/registry";
import { registryIndexer } from "../../src/indexer/registry";
import { HARDHAT_KEYS } from "./testing";

async function main(): Promise<void> {
  const [file, rpc, registryAddress, roundText, recordText] = process.argv.slice(2);
  const round = Number(roundText);
  const now = TEST_NOW + round * 3600;
  const store = await openStore({ kind: "sqlite", file: file! });
  const provider = new JsonRpcProvider(rpc, undefined, { staticNetwork: true, cacheTimeout: -1 });
  try {
    if (recordText !== "none") {
      const agent = testWallet("agent alpha");
      const takenAt = now - 100 + Number(recordText ?? 0);
      await ingestRecord(store, await sign("Snapshot", snapshot("alpha", takenAt), agent), {
        chainId: TEST_CHAIN_ID,
        now: () => now,
      });
    }
    crashPoint("sealed"); // the record is sealed and in the log; nothing anchored or scored yet
    const registry = new RegistryReader(provider, registryAddress!, 31337);
    const keeper = new ChainKeeper({
      store,
      provider,
      signer: new Wallet(HARDHAT_KEYS[2], provider),
      registry,
      confirmations: 1,
      replaceAfterSeconds: 600,
      waitMs: 20_000,
      pollMs: 50,
      now: () => Math.floor(Date.now() / 1000),
    });
    await registryIndexer({
      store,
      provider,
      chainId: 31337,
      registry: registryAddress!,
      startBlock: 0,
      confirmations: 1,
      now: () => Math.floor(Date.now() / 1000),
    }).poll();
    const report = await runCycle({
      store,
      steps: [anchorStep(keeper), scoreStep(new CountingScorer())],
      now: () => now,
      progress: (line) => {
        // The season's score rows and manifests are committed when the cycle says so.
        if (line.startsWith("scored season")) crashPoint("written");
      },
    });
    process.stdout.write(`${JSON.stringify(report)}\n`);
  } finally {
    provider.destroy();
    await store.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
