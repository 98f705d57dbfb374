/**
 * The demo `npm start` runs (the entry, scripts/start.ts, only parses the options): a child
 * `hardhat node` with the replica and the contracts, the engine (SQLite in --data-dir) with its
 * API, site and keeper, and seasons of simulated agents on an accelerated chain clock.
 * Modules that import generated types (typechain-types/) load only after startDemoChain compiled.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  assertBuildFormulasNoticed,
  assertMaySpend,
  buildApp,
  currentMode,
  cycleOnce,
  DEFAULT_INGEST_WORKERS,
  type KeeperHandle,
  openKeeper,
  openStewardshipMonitor,
  openStore,
  spendRefusal,
  SpendRefusedError,
  SQLITE_FILE_NAME,
  type Store,
  vestingBurner,
} from "@augur/engine";
import { demoAgents, demoCreators, KEEPER_ACCOUNT, nodeAccount, USER_ACCOUNT } from "./agents";
import { houseAgentsAct } from "./cadence";
import { startDemoChain, type DemoChain } from "./chain";
import { formatGuide } from "./guide";
import type { StartOptions } from "./options";
import { DemoMarket } from "./market";
import { DemoSeasons } from "./seasons";
import type { StopSignal } from "./signals";
import { formatSeasonEnd, formatTable, plural, readStanding } from "./table";
import { DemoTrader } from "./trader";

const HOUR = 3600;
const WAD = 10n ** 18n;
/** What the user's own account gets: gas money and USDG to stake and trade with. */
const USER_ETH = 10_000n;
const USER_USDG = 100_000n;

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

export async function runDemo(options: StartOptions, stop: StopSignal): Promise<void> {
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const quiet = () => undefined;
  const progress = options.ci ? quiet : say; // setting up
  const detail = options.verbose ? say : quiet; // every cycle and keeper step, every hour
  const dataDir = resolve(options.dataDir);
  freshDataDir(dataDir);

  let chain: DemoChain | undefined;
  let store: Store | undefined;
  let keeper: KeeperHandle | undefined;
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    progress("starting a hardhat node…");
    const deploymentsDir = join(dataDir, "deployments");
    chain = await startDemoChain(deploymentsDir, progress);
    if (stop.stopped) return;
    const { node, replica, deployment } = chain;
    say(`chain     ${node.url} (hardhat node, chain ${deployment.chainId})`);
    say(`registry  ${deployment.anchorRegistry}`);
    say(`ledger    ${deployment.callLedger}`);
    say(`oracle    ${deployment.priceOracle}`);
    say(`quoter    ${chain.quoter}`);

    const hre = (await import("hardhat")).default;
    // Generated types: only now that startDemoChain has compiled.
    const { DemoProject, PRE_HISTORY_DAYS } = await import("./stewardship");
    // The stewardship monitor's demo token: a few days of its history come first, so the first
    // cycle already seals daily records; then a new one every 24 simulated hours.
    progress(`scripting ${PRE_HISTORY_DAYS} days of a demo project token's history…`);
    const project = await DemoProject.open(
      replica,
      await hre.ethers.getSigners(),
      deployment.operatorVesting!,
    );
    await project.preHistory();
    say(`project   ${project.settings.token} (DEMO token, pool ${project.settings.pools[0]})`);
    if (stop.stopped) return;

    let chainTime = (await node.provider.getBlock("latest"))!.timestamp;
    const now = () => chainTime;
    const tick = async () => {
      chainTime = (await node.provider.getBlock("latest"))!.timestamp;
    };

    store = await openStore({ kind: "sqlite", file: join(dataDir, SQLITE_FILE_NAME) });
    // As augur cycle and augur serve: a formula version no notice announced is refused at start.
    await assertBuildFormulasNoticed(store.db);
    const seasons = await DemoSeasons.open(store.db, options.seasonHours, chainTime);
    // The engine's clock is the chain's: records, cycles and the site all live in simulated time.
    app = await buildApp(
      {
        store,
        chainId: deployment.chainId,
        now,
        assets: Object.fromEntries(replica.stocks.map((s) => [s.symbol, s.address])), // tickers on the site
        creators: demoCreators(), // creator names on the site
      },
      // every demo agent posts from 127.0.0.1; their records are checked as `augur serve` checks them
      { writesPerMinute: 1_000_000, ingestWorkers: DEFAULT_INGEST_WORKERS },
    );
    const origin = (await app.listen({ port: options.port, host: "127.0.0.1" })).replace(
      "localhost",
      "127.0.0.1",
    );
    say(`api       ${origin}/api/v1`);
    say(`site      ${origin}/`);
    say(`data      ${dataDir} (season ${seasons.current.id})`);

    keeper = await openKeeper(
      {
        rpc: node.url,
        registry: deployment.anchorRegistry,
        ledger: deployment.callLedger,
        "start-block": String(chain.startBlock),
        quoter: chain.quoter,
        "poll-ms": "20",
        wait: "30",
      },
      // Hardhat's well-known dev key of node account #19, the keeper this deploy named.
      { KEEPER_PRIVATE_KEY: nodeAccount(KEEPER_ACCOUNT).privateKey },
      store,
      (line) => detail(`  keeper: ${line}`),
    );

    const stewardship = await openStewardshipMonitor({
      store,
      provider: node.provider,
      chainId: deployment.chainId,
      settings: project.settings,
      confirmations: 1,
    });

    // The operator allocation: a wind-down would burn its unvested part before the archive.
    const burner = vestingBurner(replica.deployer, {
      vesting: deployment.operatorVesting!,
      token: project.settings.token,
    });
    await burner.check();

    const engine = {
      apiUrl: `${origin}/api/v1`,
      chainId: deployment.chainId,
      get seasonId() {
        return seasons.current.id;
      },
      now,
    };
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
    // The user's own account: not one the node funds, so nothing of the demo ever spends from it.
    const user = nodeAccount(USER_ACCOUNT);
    await node.provider.send("hardhat_setBalance", [user.address, `0x${(USER_ETH * WAD).toString(16)}`]);
    await replica.fund(user.address, "USDG", USER_USDG * 10n ** 6n);
    // Every stock moves every hour, whatever the agents trading it decide.
    const market = await DemoMarket.open(
      replica,
      replica.stocks.map((s) => s.symbol),
    );
    const caller = agents.find((a) => a.calls) ?? agents[0]!;
    say(
      formatGuide({
        origin,
        rpc: node.url,
        registry: deployment.anchorRegistry,
        seasonId: seasons.current.id,
        agentId: caller.id,
        agentAddress: caller.key.address,
        deploymentsDir,
        user: { address: user.address, privateKey: user.privateKey, eth: USER_ETH, usdg: USER_USDG },
      }),
    );
    say(
      `agents    ${plural(agents.length, "agent")} of ${plural(new Set(agents.map((a) => a.creatorName)).size, "creator")}; ` +
        `one simulated hour every ${options.hourMs} ms, seasons of ${plural(options.seasonHours, "hour")}` +
        (options.duration ? `, for ${options.duration} s` : "; Ctrl-C stops"),
    );

    stop.startClock();
    let refusal: string | undefined; // the season guard's last refusal, said once
    for (let hour = 0; !stop.stopped; hour += 1) {
      const began = Date.now();
      if (hour > 0) {
        await node.provider.send("evm_increaseTime", [HOUR]);
        await node.provider.send("evm_mine", []);
      }
      await market.hour();
      await tick();
      // Past the season's end the engine takes no more of its records: the next season opens
      // and each agent registers for it before its next record.
      // Outside active mode no season opens (new spend): the house agents then sit out.
      const ended = await seasons.rollOver(chainTime).catch((error: unknown) => {
        if (!(error instanceof SpendRefusedError)) throw error;
        if (error.message !== refusal) say((refusal = error.message));
        return undefined;
      });
      // Maintenance lowers the house agents' cadence; once winding down they stop (writes are refused).
      const state = await currentMode(store.db);
      const { mode } = state;
      const acting = houseAgentsAct(mode, hour, seasons.isOpen(chainTime)) ? traders : [];
      if (acting.length === 0) detail(`  mode ${mode}: the house agents sit this hour out`);
      for (const trader of acting) {
        if (stop.stopped) break;
        await trader.hour(hour);
        await tick();
      }
      if (stop.stopped) break;
      // The project's own airdrop to a new holder moves tokens out of an operator wallet: spend.
      await project.hour(hour, spendRefusal(state, "seeding a DEMO holder") === null);
      await tick();
      // The cycle's settler (the keeper's account) settles every call past closesAt and expires
      // every commit past its reveal timeout: the house agents never settle their own calls.
      // One pass anchors the hour's records, scores them and anchors the score manifests, so
      // every score the table shows can already be checked with `augur verify`.
      await cycleOnce({
        store,
        chain: keeper,
        stewardship,
        burner,
        now,
        progress: (line) => detail(`  cycle: ${line}`),
      });
      // The cycle of the hour a season ended scored it one last time: its final, sealed scores.
      if (ended) {
        const final = await readStanding(store, ended.id, traders);
        say(formatSeasonEnd(ended, seasons.current, final));
      }
      say(
        formatTable(
          hour,
          chainTime,
          seasons.current.id,
          await readStanding(store, seasons.current.id, traders),
        ),
      );
      await stop.sleep(options.hourMs - (Date.now() - began));
    }
  } finally {
    say("stopping…");
    stop.dispose();
    keeper?.close();
    await app?.close();
    await store?.close();
    await chain?.node.stop();
    say("stopped: server and store closed, node killed");
  }
}
