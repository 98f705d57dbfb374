import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { Contract, Wallet } from "ethers";
import { verifyInclusion, type Hex32 } from "@augur/scorer";
import { ingestRecord } from "../records/ingest";
import {
  addTestSeason,
  registerTestAgent,
  TEST_CHAIN_ID,
  TEST_NOW,
} from "../../test-support/records/testing";
import { openStore, type Store } from "../store/open";
import { ANCHOR_REGISTRY_ABI } from "../chain/abi/anchor-registry";
import { CRASH_STAGES } from "./crash";
import { journal, openNonce } from "../store/queries/keeper-journal";
import {
  deployRegistry,
  HARDHAT_KEYS,
  sharedHardhatNode,
  type HardhatNode,
} from "../../test-support/keeper/testing";

const CHILD = join(__dirname, "../../test-support/keeper/crash-child.ts");
const ENGINE_DIR = join(__dirname, "../..");
const ROUNDS = 4;

/** Runs one round in a child process; resolves to its exit code or the signal that ended it. */
function runChild(
  file: string,
  url: string,
  registry: string,
  round: number,
  crashAt?: string,
  record: number | "none" = 0,
) {
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }>((done) => {
    const env = { ...process.env };
    delete env.AUGUR_CRASH_AT;
    if (crashAt) env.AUGUR_CRASH_AT = crashAt;
    const child = spawn(
      process.execPath,
      ["--require", "tsx/cjs", CHILD, file, url, registry, `${round}`, `${record}`],
      {
        cwd: ENGINE_DIR,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (out += c.toString()));
    child.on("exit", (code, signal) => done({ code, signal, out }));
  });
}

describe("crash safety: the cycle and keeper SIGKILLed at every stage", function () {
  // 38 child processes, each a tsx start-up and a cycle against the node: minutes, not seconds.
  this.timeout(900_000);
  let node: HardhatNode;
  let dir: string;
  let file: string;
  let registry: string;
  let store: Store | undefined;
  const keeper = new Wallet(HARDHAT_KEYS[2]).address.toLowerCase();

  before(async () => {
    node = await sharedHardhatNode();
    registry = await deployRegistry(node.provider, keeper);
    dir = mkdtempSync(join(tmpdir(), "augur-crash-"));
    file = join(dir, "augur.sqlite");
    const setup = await openStore({ kind: "sqlite", file });
    await addTestSeason(setup);
    const ingest = (s: Parameters<typeof ingestRecord>[1]) =>
      ingestRecord(setup, s, { chainId: TEST_CHAIN_ID, now: () => TEST_NOW, recordGrace: Infinity });
    await registerTestAgent(ingest, "alpha");
    await registerTestAgent(ingest, "beta");
    await setup.close();
  });
  after(async () => {
    await store?.close();
    await node?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /**
   * The keeper's books against the chain: the journal has closed exactly the nonces the account
   * used, one mined transaction per anchor and nothing in flight; the anchors table lists exactly
   * the chain's anchors.
   */
  async function expectBooksMatchChain(when: string): Promise<void> {
    const books = await openStore({ kind: "sqlite", file });
    try {
      const contract = new Contract(registry, ANCHOR_REGISTRY_ABI, node.provider);
      const count = Number(await contract.getFunction("anchorCount").staticCall());
      const onChain: [number, number, string][] = [];
      for (let i = 0; i < count; i++) {
        const a = (await contract.getFunction("anchorAt").staticCall(i)) as {
          treeSize: bigint;
          root: string;
        };
        onChain.push([i, Number(a.treeSize), a.root.toLowerCase()]);
      }
      const stored = await books.db.selectFrom("anchors").selectAll().orderBy("anchor_index").execute();
      expect(
        stored.map((a) => [a.anchor_index, a.tree_size, a.root]),
        `${when}: anchors table = chain`,
      ).to.deep.equal(onChain);
      const scope = { chainId: 31337, registry, sender: keeper };
      const rows = await journal(books.db, scope);
      const nonce = await node.provider.getTransactionCount(keeper, "latest");
      const closed = rows.filter((r) => r.status === "mined" || r.status === "reverted").map((r) => r.nonce);
      expect(closed, `${when}: journal's closed nonces = the account's`).to.deep.equal([
        ...Array(nonce).keys(),
      ]);
      expect(await openNonce(books.db, scope), `${when}: nothing in flight`).to.equal(undefined);
      expect(
        rows.filter((r) => r.status === "mined"),
        `${when}: one mined per anchor`,
      ).to.have.length(count);
    } finally {
      await books.close();
    }
  }

  it("finishes every round after ≥ 20 kills: the books match the chain after every restart; one anchor per head, every score row once, no nonce gap, every seal provable", async () => {
    let kills = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, stage] of CRASH_STAGES.entries()) {
        // Each stage's run brings a new record, so the keeper has a new head to be killed over.
        const run = await runChild(file, node.url, registry, round, stage, i);
        if (run.signal === "SIGKILL") kills++;
        else expect(run.code, `round ${round}, ${stage}: ${run.out}`).to.equal(0);
        // Killed before the cycle, the next stage's run is the restart (and must score the hour).
        if (stage === "sealed") continue;
        // The restart brings no record: with no new head it must still settle what the kill left
        // (the follower may already have stored the anchor the killed keeper never recorded).
        const restart = await runChild(file, node.url, registry, round, undefined, "none");
        expect(restart.code, `round ${round}, restart after ${stage}: ${restart.out}`).to.equal(0);
        await expectBooksMatchChain(`round ${round}, restart after ${stage}`);
      }
    }
    // One more hour scores the last round's anchored inputs; a rerun in that hour anchors its
    // manifests and scores nothing twice.
    for (let i = 0; i < 2; i++) {
      const last = await runChild(file, node.url, registry, ROUNDS);
      expect(last.code, last.out).to.equal(0);
    }
    expect(kills, "SIGKILLs delivered").to.be.at.least(20);

    store = await openStore({ kind: "sqlite", file });
    const db = store.db;
    const contract = new Contract(registry, ANCHOR_REGISTRY_ABI, node.provider);

    // Exactly one anchor per head: the chain's list and the store's agree, sizes strictly rise.
    const count = Number(await contract.getFunction("anchorCount").staticCall());
    const anchors = await db.selectFrom("anchors").selectAll().orderBy("anchor_index").execute();
    expect(anchors.map((a) => a.anchor_index)).to.deep.equal([...Array(count).keys()]);
    for (const [i, a] of anchors.entries()) {
      const onChain = (await contract.getFunction("anchorAt").staticCall(i)) as {
        treeSize: bigint;
        root: string;
      };
      expect([Number(onChain.treeSize), onChain.root.toLowerCase()]).to.deep.equal([a.tree_size, a.root]);
      expect(a.root).to.equal(await store.log.root(db, a.tree_size));
      if (i > 0) expect(a.tree_size).to.be.greaterThan(anchors[i - 1]!.tree_size);
    }
    expect(anchors[anchors.length - 1]!.tree_size).to.equal(await store.log.size(db));

    // Every round's hour scored once for both agents: no missing and no duplicate score rows.
    const scores = await db.selectFrom("scores").select(["agent_id", "as_of"]).orderBy("as_of").execute();
    const hours = [...Array(ROUNDS + 1).keys()].map((r) => Math.floor((TEST_NOW + r * 3600) / 3600) * 3600);
    expect(scores.length).to.equal(hours.length * 2);
    expect([...new Set(scores.map((s) => s.as_of))]).to.deep.equal(hours);
    expect(new Set(scores.map((s) => `${s.agent_id}@${s.as_of}`)).size).to.equal(scores.length);

    // No nonce gap: the account's nonce is the number of the keeper's mined transactions, which
    // used nonces 0, 1, 2, … with none left open.
    const scope = { chainId: 31337, registry, sender: keeper };
    const rows = await journal(db, scope);
    const closed = rows.filter((r) => r.status === "mined" || r.status === "reverted").map((r) => r.nonce);
    const nonce = await node.provider.getTransactionCount(keeper, "latest");
    expect(closed).to.deep.equal([...Array(nonce).keys()]);
    expect(await openNonce(db, scope)).to.equal(undefined);
    expect(rows.filter((r) => r.status === "mined")).to.have.length(count);
    // Killed after signing, a restart sends the recorded bytes rather than signing anew: one signed
    // transaction per head, and each mined one is one of them.
    const signed = rows.filter((r) => r.status === "signed").map((r) => r.tx_hash);
    expect(signed).to.have.length(count);
    expect(rows.filter((r) => r.status === "mined").map((r) => r.tx_hash)).to.deep.equal(signed);

    // Every seal still provable: each leaf's inclusion proof in the newest anchor checks both
    // off chain and in the registry itself.
    const head = anchors[anchors.length - 1]!;
    const leaves = await db
      .selectFrom("merkle_leaves")
      .select(["leaf_index", "seal"])
      .orderBy("leaf_index")
      .execute();
    for (const leaf of leaves) {
      const proof = await store.log.inclusionProof(db, leaf.leaf_index, head.tree_size);
      const seal = leaf.seal as Hex32;
      expect(
        verifyInclusion(seal, {
          leafIndex: leaf.leaf_index,
          treeSize: head.tree_size,
          root: head.root as Hex32,
          proof,
        }),
      ).to.equal(true);
      expect(
        await contract
          .getFunction("verifyInclusion")
          .staticCall(seal, leaf.leaf_index, head.tree_size, proof),
      ).to.equal(true);
    }
  });
});
