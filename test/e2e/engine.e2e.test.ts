/**
 * The engine end to end, as an operator runs it (issue #7, "Done when"): a separate `hardhat node`
 * with the replica and Augur ledger deployed by `npx hardhat augur:deploy`, `augur serve` and
 * `augur cycle --once` as child processes on one SQLite file, agents signing their records with
 * the @augur/agent toolkit and making a call through CallLedger, then `augur verify` with the
 * heads checked on chain — and once a stored row is tampered with, `augur verify` refusing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import Database from "better-sqlite3";
import { expect } from "chai";
import { Contract, type HDNodeWallet } from "ethers";
import { hex32Bytes, leafHash, nodeHash, seal as sealOf, toHex32, type Hex32 } from "@augur/scorer";
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
import { startHardhatNode, type HardhatNode } from "@augur/engine/src/chain/node";
import { main as augurMain } from "@augur/engine/src/cli/main";
import { openStore } from "@augur/engine/src/store/open";
import { nodeAccount } from "../../scripts/start/agents";
import { augur, childEnv, hardhat, serve, type Served } from "./augur-process";

const HOUR = 3600;
const DAY = 86_400;
const SEASON = "e2e";
const USDG = 10n ** 6n;

interface Deployed {
  readonly chainId: number;
  readonly callLedger: string;
  readonly anchorRegistry: string;
  readonly usdg: string;
  readonly assets: Record<string, string>;
}

interface ScoreResponse {
  score: number | null;
  reason: string | null;
  rank: number | null;
  seal: string;
  manifest: string;
  anchor: { status: string; treeSize?: number };
}

/** `augur verify` in this process (the CLI's own entry), with everything it printed. */
async function verify(args: string[]): Promise<{ code: number; out: string }> {
  const stdout = new PassThrough();
  let out = "";
  stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  const code = await augurMain(["verify", ...args], { stdout, stderr: stdout, stdin: new PassThrough() });
  return { code, out };
}

describe("engine end to end on a hardhat node: serve, cycle, keeper, verify, tamper", function () {
  this.timeout(120_000);

  let node: HardhatNode;
  let dataDir: string;
  let deployed: Deployed;
  let served: Served;
  let api: string;
  let cycleArgs: string[];
  let engineEnv: NodeJS.ProcessEnv;
  let callSeal: string | undefined;
  const timings: string[] = [];
  const started = Date.now();
  const lap = (what: string) => timings.push(`${what} ${((Date.now() - started) / 1000).toFixed(1)} s`);

  // Two agents of one creator, on the node's funded development accounts (never used anywhere real).
  const creator = nodeAccount(10);
  const agents = [
    { id: "e2e-alpha", style: "momentum", key: nodeAccount(2) },
    { id: "e2e-beta", style: "mean-reversion", key: nodeAccount(3) },
  ] as const;

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
  const verifyArgs = (agentId: string) => [
    "--api",
    api,
    "--agent",
    agentId,
    "--season",
    SEASON,
    "--rpc",
    node.url,
    "--registry",
    deployed.anchorRegistry,
  ];

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "augur-e2e-"));
    node = await startHardhatNode();
    const startBlock = await node.provider.getBlockNumber();
    lap("node up");

    // The operator's deploy: replica (tokens, Uniswap v3 pools, trading history) and contracts.
    const deploy = await hardhat(
      ["augur:deploy", "--network", "localhost", "--json"],
      childEnv({ LOCALHOST_RPC_URL: node.url, AUGUR_DEPLOYMENTS_DIR: join(dataDir, "deployments") }),
    );
    expect(deploy.code, deploy.out).to.equal(0);
    deployed = JSON.parse(deploy.stdout.slice(deploy.stdout.indexOf("{"))) as Deployed;
    lap("replica and contracts deployed");

    // The engine lives on the wall clock; the season spans the last three days (records are
    // back-dated inside it) and the chain's clock, which the replica's history moved 48 h ahead.
    const asOf = Math.floor(Date.now() / 1000 / HOUR) * HOUR;
    const seasonStart = asOf - 3 * DAY;
    engineEnv = childEnv({ AUGUR_DATA_DIR: dataDir });
    const season = await augur(
      ["season", "add", "--id", SEASON, "--starts", `${seasonStart}`, "--ends", `${asOf + 30 * DAY}`],
      engineEnv,
    );
    expect(season.code, season.out).to.equal(0);
    served = await serve(["--port", "0", "--chain-id", `${deployed.chainId}`], engineEnv);
    api = served.origin;
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

    cycleArgs = [
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
    // First cycle: indexes the settled call, anchors every record, scores them, seals the
    // manifests. Second: anchors the manifests. A third only if the hour turned in between
    // (the second then scored anew, and those manifests wait for the next anchor).
    await cycle();
    await cycle();
    if ((await scoreOf(agents[0].id)).anchor.status !== "anchored") await cycle();
    lap("cycles done");

    const db = new Database(join(dataDir, "augur.sqlite"), { readonly: true });
    try {
      callSeal = (
        db.prepare("SELECT seal FROM records WHERE kind = 'call'").get() as { seal: string } | undefined
      )?.seal;
    } finally {
      db.close();
    }
  });

  after(async () => {
    console.log(`      e2e timings: ${timings.join(", ")}`);
    await served?.stop();
    await node?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("anchors the log on chain and serves a score for every agent", async () => {
    const { anchors } = (await (await fetch(`${api}/api/v1/anchors`)).json()) as {
      anchors: Array<{ treeSize: number; root: string; txHash: string }>;
    };
    expect(anchors.length).to.be.at.least(2);
    const registry = new Contract(
      deployed.anchorRegistry,
      ["function rootOf(uint64 treeSize) view returns (bytes32)"],
      node.provider,
    );
    for (const anchor of anchors) {
      expect(await registry.getFunction("rootOf")(anchor.treeSize)).to.equal(anchor.root);
    }
    for (const agent of agents) {
      const score = await scoreOf(agent.id);
      expect(score.score, JSON.stringify(score)).to.be.a("number");
      expect(score.rank).to.be.oneOf([1, 2]);
      expect(score.anchor.status).to.equal("anchored");
    }
  });

  it("seals the agent's settled CallLedger call as a record and anchors it", async () => {
    expect(callSeal, "no call record was sealed from CallLedger's events").to.match(/^0x[0-9a-f]{64}$/);
    const res = await fetch(`${api}/api/v1/anchors/leaves/${callSeal}`);
    expect(res.status, await res.clone().text()).to.equal(200);
    const leaf = (await res.json()) as { status: string };
    expect(leaf.status).to.equal("anchored");
  });

  it("augur verify passes all four steps for a scored agent, with the heads checked on chain", async () => {
    const { code, out } = await verify(verifyArgs(agents[0].id));
    expect(code, out).to.equal(0);
    for (const step of [1, 2, 3, 4]) expect(out).to.match(new RegExp(`^step ${step} passed`, "m"));
    expect(out).to.match(/heads checked on chain/);
    expect(out).to.match(/^verified: score \d+(\.\d+)?$/m);
  });

  it("augur verify fails, naming step 1, once a score manifest is rewritten in the SQLite file", async () => {
    // An operator with write access to the database: drop the append-only trigger, edit a row.
    const db = new Database(join(dataDir, "augur.sqlite"));
    try {
      db.exec("DROP TRIGGER records_refuse_update");
      const { seal } = await scoreOf(agents[1].id);
      // One measured input changed: six snapshots become seven.
      const changed = db
        .prepare(
          `UPDATE records SET body = replace(body, '"snapshot_count":6', '"snapshot_count":7')
           WHERE seal = ? AND body LIKE '%"snapshot_count":6%'`,
        )
        .run(seal);
      expect(changed.changes).to.equal(1);
    } finally {
      db.close();
    }
    const { code, out } = await verify(verifyArgs(agents[1].id));
    expect(code, out).to.equal(1);
    expect(out).to.match(/^step 1 FAILED: sha256\(manifest\)/m);
    expect(out).to.match(/^not verified: 1 of 4 steps failed$/m);
  });
  it("a forged log passes every local check, and AnchorRegistry refuses it (augur verify --rpc)", async () => {
    // The operator hides the settled call: its leaf is replaced, every stored subtree above it
    // recomputed and each anchor's root rewritten to match, so every proof the engine serves
    // checks out against the rewritten anchors. Only the roots posted on chain still differ.
    const file = join(dataDir, "augur.sqlite");
    const raw = new Database(file);
    let leaf: number;
    try {
      for (const table of ["merkle_nodes", "anchors"]) raw.exec(`DROP TRIGGER ${table}_refuse_update`);
      leaf = (
        raw.prepare("SELECT leaf_index FROM records WHERE seal = ?").get(callSeal) as { leaf_index: number }
      ).leaf_index;
      const hashAt = (level: number, idx: number) =>
        (
          raw.prepare("SELECT hash FROM merkle_nodes WHERE level = ? AND idx = ?").get(level, idx) as
            | { hash: string }
            | undefined
        )?.hash;
      const setHash = raw.prepare("UPDATE merkle_nodes SET hash = ? WHERE level = ? AND idx = ?");
      setHash.run(toHex32(leafHash(sealOf({ hidden: callSeal }))), 0, leaf);
      for (let level = 1; hashAt(level, leaf >> level) !== undefined; level += 1) {
        const idx = leaf >> level;
        const left = hex32Bytes(hashAt(level - 1, 2 * idx) as Hex32);
        const right = hex32Bytes(hashAt(level - 1, 2 * idx + 1) as Hex32);
        setHash.run(toHex32(nodeHash(left, right)), level, idx);
      }
    } finally {
      raw.close();
    }
    const store = await openStore({ kind: "sqlite", file });
    try {
      const anchors = await store.db.selectFrom("anchors").select(["anchor_index", "tree_size"]).execute();
      for (const anchor of anchors.filter((a) => a.tree_size > leaf)) {
        await store.db
          .updateTable("anchors")
          .set({ root: await store.log.root(store.db, anchor.tree_size) })
          .where("anchor_index", "=", anchor.anchor_index)
          .execute();
      }
    } finally {
      await store.close();
    }

    const local = await verify(verifyArgs(agents[0].id).slice(0, 6)); // --api --agent --season only
    expect(local.code, local.out).to.equal(0);
    const onChain = await verify(verifyArgs(agents[0].id));
    expect(onChain.code, onChain.out).to.equal(1);
    expect(onChain.out).to.match(/^step 2 FAILED/m);
    expect(onChain.out).to.match(
      /^ {2}first snapshot 0x[0-9a-f]{8}…: .*AnchorRegistry does not confirm this head$/m,
    );
    expect(onChain.out).to.match(/^step 4 FAILED: .*AnchorRegistry does not confirm this head/m);
    expect(onChain.out).to.match(/^not verified: 2 of 4 steps failed$/m);
  });
});
