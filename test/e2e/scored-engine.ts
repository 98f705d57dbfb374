/**
 * The engine as an operator runs it, scored and anchored, for the end-to-end tests: a separate
 * `hardhat node` with the replica and Augur ledger deployed by `npx hardhat augur:deploy`,
 * `augur serve` and `augur cycle --once` as child processes on one SQLite file, two agents of one
 * creator signing three days of records with @augur/agent, one call made through CallLedger, and
 * one cycle, after which both agents' scores sit in a mined anchor.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { Contract, type HDNodeWallet } from "ethers";
import {
  commitCall,
  connectLedger,
  depositStake,
  revealCall,
  SaltVault,
  settleCall,
  signRecord,
  signRegistration,
  type RecordType,
  type SignedRecord,
} from "@augur/agent";
import { startHardhatNode, type HardhatNode } from "@augur/engine";
import { nodeAccount } from "../../scripts/start/agents";
import { augur, childEnv, hardhat, serve, type Served } from "./augur-process";

const HOUR = 3600;
const DAY = 86_400;
export const SEASON = "e2e";
const USDG = 10n ** 6n;

export interface Deployed {
  readonly chainId: number;
  readonly callLedger: string;
  readonly anchorRegistry: string;
  readonly usdg: string;
  readonly assets: Record<string, string>;
}

export interface ScoreResponse {
  score: number | null;
  reason: string | null;
  rank: number | null;
  seal: string;
  manifest: string;
  anchor: { status: string; treeSize?: number };
}

// Two agents of one creator, on the node's funded development accounts (never used anywhere real).
const creator = nodeAccount(10);
export const E2E_AGENTS = [
  { id: "e2e-alpha", style: "momentum", key: nodeAccount(2) },
  { id: "e2e-beta", style: "mean-reversion", key: nodeAccount(3) },
] as const;

export interface ScoredEngine {
  readonly node: HardhatNode;
  readonly dataDir: string;
  readonly deployed: Deployed;
  readonly served: Served;
  /** The engine's origin. */
  readonly api: string;
  /** The block the deploy started at (where the indexer starts). */
  readonly startBlock: number;
  /** "<step> <seconds since start> s", for the test's log. */
  readonly timings: string[];
  scoreOf(agentId: string): Promise<ScoreResponse>;
  /** One more `augur cycle --once` (indexer, keeper, scores). */
  cycle(): Promise<string>;
  /** Stops the server and the node and deletes the data directory. */
  stop(): Promise<void>;
}

export async function startScoredEngine(): Promise<ScoredEngine> {
  let engineEnv: NodeJS.ProcessEnv;
  const agents = E2E_AGENTS;
  const timings: string[] = [];
  const started = Date.now();
  const lap = (what: string) => timings.push(`${what} ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const dataDir = mkdtempSync(join(tmpdir(), "augur-e2e-"));
  const node = await startHardhatNode();
  // A setup that fails half-way stops what it started: no orphan node or server.
  const undo: Array<() => Promise<unknown>> = [() => node.stop()];
  try {
    const post = async (signed: SignedRecord): Promise<void> => {
      const res = await fetch(`${api}/api/v1/records`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(signed),
      });
      expect(res.status, `${signed.type}: ${await res.clone().text()}`).to.equal(201);
    };
    const record = async (key: HDNodeWallet, agentId: string, type: RecordType, fields: object) =>
      post(await signRecord(key, deployed.chainId, type, { agentId, seasonId: SEASON, ...fields }));
    const cycle = async (): Promise<string> => {
      const { code, out } = await augur(cycleArgs, engineEnv);
      expect(code, out).to.equal(0);
      return out;
    };
    const scoreOf = async (agentId: string): Promise<ScoreResponse> => {
      const res = await fetch(`${api}/api/v1/agents/${agentId}/score?season_id=${SEASON}`);
      expect(res.status, await res.clone().text()).to.equal(200);
      return (await res.json()) as ScoreResponse;
    };
    const startBlock = await node.provider.getBlockNumber();
    lap("node up");

    // The operator's deploy: replica (tokens, Uniswap v3 pools, trading history) and contracts.
    const deploy = await hardhat(
      ["augur:deploy", "--network", "localhost", "--json"],
      childEnv({ LOCALHOST_RPC_URL: node.url, AUGUR_DEPLOYMENTS_DIR: join(dataDir, "deployments") }),
    );
    expect(deploy.code, deploy.out).to.equal(0);
    const deployed = JSON.parse(deploy.stdout.slice(deploy.stdout.indexOf("{"))) as Deployed;
    lap("replica and contracts deployed");

    // The engine lives on the wall clock; the season spans the last three days (records are
    // back-dated inside it) and the chain's clock, which the replica's history moved 48 h ahead.
    const asOf = Math.floor(Date.now() / 1000 / HOUR) * HOUR;
    const seasonStart = asOf - 3 * DAY;
    engineEnv = childEnv({ AUGUR_DATA_DIR: dataDir });
    const season = await augur(
      [
        "season",
        "add",
        "--id",
        SEASON,
        "--starts",
        `${seasonStart}`,
        "--ends",
        `${asOf + 30 * DAY}`,
        // this scenario's agents post their snapshots and trades
        "--inputs",
        "declared",
      ],
      engineEnv,
    );
    expect(season.code, season.out).to.equal(0);
    // The records below are back-dated into the season: the server takes a past that far back.
    const served = await serve(
      ["--port", "0", "--chain-id", `${deployed.chainId}`, "--record-grace", `${4 * DAY}`],
      engineEnv,
    );
    undo.push(() => served.stop());
    const api = served.origin;
    lap("season added, augur serve listening");

    // Agents register (agent and creator both sign) and post three days of records.
    for (const [n, agent] of agents.entries()) {
      await post(
        await signRegistration(agent.key, creator, deployed.chainId, {
          agentId: agent.id,
          seasonId: SEASON,
          creator: creator.address,
          agentKey: agent.key.address,
          style: agent.style,
          registeredAt: seasonStart + 60,
        }),
      );
      const asset = deployed.assets.NVDA!.toLowerCase();
      for (let step = 0; step < 6; step += 1) {
        const at = seasonStart + HOUR + step * 12 * HOUR;
        const nav = 1_000_000n * USDG + BigInt((step * (n === 0 ? 7 : -3) + step * step) * 1_000) * USDG;
        await record(agent.key, agent.id, "Snapshot", {
          takenAt: at,
          nav: nav.toString(),
          flow: "0",
          investedBps: 4_000 + step * 500,
        });
        await record(agent.key, agent.id, "Decision", {
          decidedAt: at + 60,
          asset,
          action: step % 2 === 0 ? "buy" : "sell",
          source: "decider",
          confidenceBps: 6_000 + step * 300,
          note: `e2e step ${step}`,
        });
      }
      await record(agent.key, agent.id, "Trade", {
        executedAt: seasonStart + 2 * HOUR,
        asset,
        side: "buy",
        quantity: (10n ** 18n).toString(),
        price: (180n * 10n ** 18n).toString(),
        txHash: `0x${"ab".repeat(32)}`,
      });
    }
    lap("records signed and posted");

    // Agent alpha stakes and makes a call through CallLedger; an hour of chain time later it is
    // settled, and the indexer turns the resolution into a sealed call record.
    const alpha = agents[0].key.connect(node.provider);
    const usdg = new Contract(deployed.usdg, ["function mint(address to, uint256 amount)"], alpha);
    await (await usdg.getFunction("mint")(alpha.address, 1_000n * USDG)).wait();
    const ledger = await connectLedger(alpha, deployed.callLedger, deployed.assets);
    const vault = SaltVault.open(join(dataDir, "vault", "alpha.json"));
    await depositStake(ledger, 100n * USDG);
    const { callId } = await commitCall(ledger, vault, {
      asset: "NVDA",
      window: HOUR,
      direction: "up",
      confidenceBps: 7_000,
    });
    await revealCall(ledger, vault, callId);
    await node.provider.send("evm_increaseTime", [HOUR + 1]);
    await node.provider.send("evm_mine", []);
    await settleCall(ledger, callId, vault);
    lap("call committed, revealed and settled");

    const cycleArgs = [
      "cycle",
      "--once",
      "--rpc",
      node.url,
      "--registry",
      deployed.anchorRegistry,
      "--ledger",
      deployed.callLedger,
      "--start-block",
      `${startBlock}`,
      "--poll-ms",
      "20",
      "--wait",
      "30",
    ];
    // The deploy gave the keeper role to the deployer, the node's account #0.
    engineEnv = { ...engineEnv, KEEPER_PRIVATE_KEY: nodeAccount(0).privateKey };
    // One cycle: indexes the settled call, anchors every record, scores them, seals the
    // manifests and anchors them too, so `augur verify` passes with no second pass (issue 17).
    await cycle();
    lap("one cycle done");

    return {
      node,
      dataDir,
      deployed,
      served,
      api,
      startBlock,
      timings,
      scoreOf,
      cycle,
      async stop() {
        await served?.stop();
        await node?.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    for (const step of undo.reverse()) await step().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}
