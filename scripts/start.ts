/**
 * `npm start`: the whole system on one machine — a child `hardhat node` with the replica and
 * the contracts, the engine (SQLite in --data-dir) with its API, site and keeper, and a demo
 * season of simulated agents on an accelerated chain clock. `npm start -- --help` for options.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  assertMaySpend,
  buildApp,
  currentMode,
  cycleOnce,
  insertSeason,
  type KeeperHandle,
  openKeeper,
  openStewardshipMonitor,
  openStore,
  SQLITE_FILE_NAME,
  type Store,
} from "@augur/engine";
import { demoAgents, KEEPER_ACCOUNT, nodeAccount } from "./start/agents";
import { startDemoChain, type DemoChain } from "./start/chain";
import { parseStartOptions, START_HELP, StartUsageError, type StartOptions } from "./start/options";
import { DemoMarket } from "./start/market";
import { formatTable, readStanding } from "./start/table";
import { DemoTrader } from "./start/trader";
import { DemoProject, PRE_HISTORY_DAYS } from "./start/stewardship";

const SEASON_ID = "demo";
const HOUR = 3600;
/** In maintenance mode the house agents act one simulated hour in this many (docs/stewardship.md). */
const MAINTENANCE_CADENCE_HOURS = 4;

/** Resolves when SIGINT/SIGTERM arrives or --duration runs out; `stopped` says which already. */
function stopSignal(durationSeconds: number | undefined) {
  let stopped = false;
  let wake: () => void = () => undefined;
  const done = new Promise<void>((resolveDone) => (wake = resolveDone));
  const stop = () => {
    stopped = true;
    wake();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  const timer = durationSeconds === undefined ? undefined : setTimeout(stop, durationSeconds * 1000);
  return {
    get stopped() {
      return stopped;
    },
    /** Sleeps `ms` unless stopped first. */
    sleep: (ms: number) => Promise.race([done, new Promise<void>((r) => setTimeout(r, ms).unref())]),
    // The handlers stay until exit: a second signal during shutdown must not kill the process
    // half-way (tsx relays the terminal's Ctrl-C a moment after the process group got it).
    dispose() {
      if (timer) clearTimeout(timer);
    },
  };
}

/** Removes only what a previous demo wrote: its chain is gone, so its store would not match. */
function freshDataDir(dataDir: string): void {
  for (const name of [
    SQLITE_FILE_NAME,
    `${SQLITE_FILE_NAME}-wal`,
    `${SQLITE_FILE_NAME}-shm`,
    "vault",
    "deployments",
  ]) {
    rmSync(join(dataDir, name), { recursive: true, force: true });
  }
  mkdirSync(dataDir, { recursive: true });
}

async function run(options: StartOptions): Promise<void> {
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const progress = options.ci ? () => undefined : say;
  const stop = stopSignal(options.duration);
  const dataDir = resolve(options.dataDir);
  freshDataDir(dataDir);

  let chain: DemoChain | undefined;
  let store: Store | undefined;
  let keeper: KeeperHandle | undefined;
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    progress("starting a hardhat node…");
    chain = await startDemoChain(join(dataDir, "deployments"), progress);
    const { node, replica, deployment } = chain;
    say(`chain     ${node.url} (hardhat node, chain ${deployment.chainId})`);
    say(`registry  ${deployment.anchorRegistry}`);
    say(`ledger    ${deployment.callLedger}`);
    say(`oracle    ${deployment.priceOracle}`);

    const hre = (await import("hardhat")).default;
    // The stewardship monitor's demo token: a few days of its history come first, so the first
    // cycle already seals daily records; then a new one every 24 simulated hours.
    progress(`scripting ${PRE_HISTORY_DAYS} days of a demo project token's history…`);
    const project = await DemoProject.open(replica, await hre.ethers.getSigners());
    await project.preHistory();
    say(`project   ${project.settings.token} (DEMO token, pool ${project.settings.pools[0]})`);

    let chainTime = (await node.provider.getBlock("latest"))!.timestamp;
    const now = () => chainTime;
    const tick = async () => {
      chainTime = (await node.provider.getBlock("latest"))!.timestamp;
    };

    store = await openStore({ kind: "sqlite", file: join(dataDir, SQLITE_FILE_NAME) });
    const seasonStart = Math.floor(chainTime / HOUR) * HOUR;
    await insertSeason(store.db, {
      id: SEASON_ID,
      name: "Demo season",
      starts_at: seasonStart,
      ends_at: seasonStart + 28 * 86_400,
      closed_at: null,
      created_at: chainTime,
    });
    // The engine's clock is the chain's: records, cycles and the site all live in simulated time.
    app = await buildApp(
      { store, chainId: deployment.chainId, now },
      { writesPerMinute: 1_000_000 }, // every demo agent posts from 127.0.0.1
    );
    const origin = (await app.listen({ port: options.port, host: "127.0.0.1" })).replace(
      "localhost",
      "127.0.0.1",
    );
    say(`api       ${origin}/api/v1`);
    say(`site      ${origin}/`);
    say(`data      ${dataDir} (season ${SEASON_ID})`);

    keeper = await openKeeper(
      {
        rpc: node.url,
        registry: deployment.anchorRegistry,
        ledger: deployment.callLedger,
        "start-block": String(chain.startBlock),
        "poll-ms": "20",
        wait: "30",
      },
      // Hardhat's well-known dev key of node account #19, the keeper this deploy named.
      { KEEPER_PRIVATE_KEY: nodeAccount(KEEPER_ACCOUNT).privateKey },
      store,
      (line) => progress(`  keeper: ${line}`),
    );

    const stewardship = await openStewardshipMonitor({
      store,
      provider: node.provider,
      chainId: deployment.chainId,
      settings: project.settings,
      confirmations: 1,
    });

    const engine = { apiUrl: `${origin}/api/v1`, chainId: deployment.chainId, seasonId: SEASON_ID, now };
    const agents = demoAgents(
      options.agents,
      replica.stocks.map((s) => s.symbol),
    );
    const traders: DemoTrader[] = [];
    // Joining funds and stakes each house agent: new spend, which only an active system makes.
    await assertMaySpend(store.db, "funding the demo's house agents");
    for (const agent of agents) {
      const signer = await hre.ethers.getSigner(agent.key.address);
      const trader = await DemoTrader.open(
        agent,
        signer,
        replica,
        deployment.callLedger,
        deployment.assets,
        join(dataDir, "vault"),
        engine,
      );
      await trader.join();
      traders.push(trader);
    }
    // The stock the callers call moves every hour, whatever the agents trading it decide.
    const called = agents.find((a) => a.calls)?.calls;
    const market = called === undefined ? undefined : await DemoMarket.open(replica, called);
    say(
      `agents    ${agents.length} of ${new Set(agents.map((a) => a.creatorName)).size} creators; ` +
        `one simulated hour every ${options.hourMs} ms${options.duration ? `, for ${options.duration} s` : "; Ctrl-C stops"}`,
    );

    for (let hour = 0; !stop.stopped; hour += 1) {
      const began = Date.now();
      if (hour > 0) {
        await node.provider.send("evm_increaseTime", [HOUR]);
        await node.provider.send("evm_mine", []);
      }
      await market?.hour();
      await tick();
      // Maintenance lowers the house agents' cadence; once winding down they stop (writes are refused).
      const mode = (await currentMode(store.db)).mode;
      const acting =
        mode === "active" || (mode === "maintenance" && hour % MAINTENANCE_CADENCE_HOURS === 0)
          ? traders
          : [];
      if (acting.length === 0) progress(`  mode ${mode}: the house agents sit this hour out`);
      for (const trader of acting) {
        if (stop.stopped) break;
        await trader.settleDue();
        await trader.hour(hour);
        await tick();
      }
      if (stop.stopped) break;
      await project.hour(hour);
      await tick();
      // Twice: the first run anchors the hour's records and scores them; the second (same hour,
      // so it scores nothing new) anchors those score manifests, so every score the table shows
      // can already be checked with `augur verify` instead of an hour later.
      for (let pass = 0; pass < 2; pass += 1) {
        await cycleOnce({
          store,
          chain: keeper,
          stewardship,
          now,
          progress: (line) => progress(`  cycle: ${line}`),
        });
      }
      say(formatTable(hour, chainTime, await readStanding(store, SEASON_ID, traders)));
      await stop.sleep(options.hourMs - (Date.now() - began));
    }
    say("stopping…");
  } finally {
    stop.dispose();
    keeper?.close();
    await app?.close();
    await store?.close();
    await chain?.node.stop();
  }
  say("stopped: server and store closed, node killed");
}

async function main(): Promise<number> {
  let options: StartOptions;
  try {
    options = parseStartOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof StartUsageError)) throw error;
    process.stderr.write(`npm start: ${error.message} (npm start -- --help)\n`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(START_HELP);
    return 0;
  }
  await run(options);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `npm start: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}\n`,
    );
    process.exit(1);
  },
);
