/**
 * The engine end to end, as an operator runs it (issue #7, "Done when"): a separate `hardhat node`
 * with the replica and Augur ledger deployed by `npx hardhat augur:deploy`, `augur serve` and
 * `augur cycle --once` as child processes on one SQLite file, agents signing their records with
 * the @augur/agent toolkit and making a call through CallLedger, then `augur verify` with the
 * heads checked on chain — and once a stored row is tampered with, `augur verify` refusing.
 * docs/verify-by-hand.md's Python script runs on the same engine (verify-by-hand.ts) before any
 * tampering: one engine set-up serves both.
 */
import { join } from "node:path";
import { PassThrough } from "node:stream";
import Database from "better-sqlite3";
import { expect } from "chai";
import { Contract } from "ethers";
import { merkleRoot, seal as sealOf, type Hex32 } from "@augur/scorer";
import { type HardhatNode, openStore, runCli as augurMain, STORED_FROM_LEVEL } from "@augur/engine";
import { type Deployed, E2E_AGENTS, SEASON, type ScoredEngine, startScoredEngine } from "./scored-engine";
import { verifyByHand } from "./verify-by-hand";

/** `augur verify` in this process (the CLI's own entry), with everything it printed. */
async function verify(args: string[]): Promise<{ code: number; out: string }> {
  const stdout = new PassThrough();
  let out = "";
  stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  const code = await augurMain(["verify", ...args], { stdout, stderr: stdout, stdin: new PassThrough() });
  return { code, out };
}

describe("engine end to end on a hardhat node: serve, cycle, keeper, verify, tamper", function () {
  this.timeout(180_000);

  let engine: ScoredEngine;
  let node: HardhatNode;
  let dataDir: string;
  let deployed: Deployed;
  let api: string;
  let scoreOf: ScoredEngine["scoreOf"];
  let callSeal: string | undefined;
  const agents = E2E_AGENTS;

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
    engine = await startScoredEngine();
    ({ node, dataDir, deployed, api, scoreOf } = engine);
    const db = new Database(join(dataDir, "augur.sqlite"), { readonly: true });
    try {
      callSeal = // The call's outcome record (its commit and reveal were sealed before it, as they happened).
        (
          db
            .prepare(
              `SELECT seal FROM records WHERE kind = 'call' AND body LIKE '%"format":"augur-call/v1"%'`,
            )
            .get() as { seal: string } | undefined
        )?.seal;
    } finally {
      db.close();
    }
  });

  after(async () => {
    console.log(`      e2e timings: ${engine?.timings.join(", ")}`);
    await engine?.stop();
  });

  // Mocha runs child suites in order: every check of the intact engine, then the tampering.
  describe("the scored engine", () => {
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
  });

  verifyByHand(() => engine);

  describe("once rows are tampered with", () => {
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
      // The operator hides the settled call: its leaf's seal is replaced, every stored subtree above
      // it (STORED_FROM_LEVEL and up; lower ones are hashed from the leaves) recomputed and each
      // anchor's root rewritten to match, so every proof the engine serves checks out against the
      // rewritten anchors. Only the roots posted on chain still differ.
      const file = join(dataDir, "augur.sqlite");
      const raw = new Database(file);
      let leaf: number;
      try {
        for (const table of ["merkle_leaves", "merkle_nodes", "anchors"])
          raw.exec(`DROP TRIGGER ${table}_refuse_update`);
        leaf = (
          raw.prepare("SELECT leaf_index FROM records WHERE seal = ?").get(callSeal) as { leaf_index: number }
        ).leaf_index;
        raw
          .prepare("UPDATE merkle_leaves SET seal = ? WHERE leaf_index = ?")
          .run(sealOf({ hidden: callSeal }), leaf);
        const seals = raw
          .prepare(
            "SELECT seal FROM merkle_leaves WHERE leaf_index >= ? AND leaf_index < ? ORDER BY leaf_index",
          )
          .pluck();
        const setHash = raw.prepare("UPDATE merkle_nodes SET hash = ? WHERE level = ? AND idx = ?");
        for (let level = STORED_FROM_LEVEL; ; level += 1) {
          const idx = leaf >> level;
          const leaves = seals.all(idx << level, (idx + 1) << level) as Hex32[];
          if (setHash.run(merkleRoot(leaves), level, idx).changes === 0) break;
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
});
