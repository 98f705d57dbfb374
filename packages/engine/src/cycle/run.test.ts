import { expect } from "chai";
import { merkleRoot, type Hex32 } from "@augur/scorer";
import { ingestRecord, type Submission } from "../records/ingest";
import {
  addTestSeason,
  registerTestAgent,
  sign,
  snapshot,
  TEST_CHAIN_ID,
  TEST_NOW,
} from "../records/testing";
import { MerkleLogStore } from "../store/merkle/log-store";
import type { Store } from "../store/open";
import { testBackends } from "../store/testing";
import { loadSeasonHeader, streamAgentInputs } from "./inputs";
import { CYCLE_SECONDS, runCycle } from "./run";
import { CountingScorer, FakeKeeper } from "./testing";

const log = new MerkleLogStore();

async function count(store: Store, table: "anchors" | "scores" | "records"): Promise<number> {
  const row = await store.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

for (const backend of testBackends()) {
  describe(`hourly cycle on ${backend.name}`, () => {
    let store: Store;
    let now = TEST_NOW;
    const ingest = (s: Submission) => ingestRecord(store, s, { chainId: TEST_CHAIN_ID, now: () => now });

    beforeEach(async () => {
      now = TEST_NOW;
      store = await backend.open();
      await addTestSeason(store);
      const { agent: a } = await registerTestAgent(ingest, "alpha");
      await registerTestAgent(ingest, "beta");
      for (const t of [300, 200, 100])
        await ingest(await sign("Snapshot", snapshot("alpha", TEST_NOW - t), a));
    });
    afterEach(async () => store.close());

    it("without keeper or scorer computes the log head and writes nothing", async () => {
      const lines: string[] = [];
      const report = await runCycle({ store, now: () => now, progress: (l) => lines.push(l) });
      const seals = (
        await store.db.selectFrom("merkle_leaves").select("seal").orderBy("leaf_index").execute()
      ).map((r) => r.seal as Hex32);
      expect(report.head).to.deep.equal({ treeSize: 5, root: merkleRoot(seals) });
      expect(report.anchored).to.equal(undefined);
      expect(await count(store, "anchors")).to.equal(0);
      expect(lines.join("\n")).to.contain("keeper: not configured");
    });

    it("anchors, scores from anchored inputs, appends manifests; rerunning in the same hour adds nothing twice", async () => {
      const keeper = new FakeKeeper();
      const scorer = new CountingScorer();
      const deps = { store, keeper, scorer, now: () => now };

      const first = await runCycle(deps);
      expect(first.anchored).to.deep.equal({ anchorIndex: 0, treeSize: 5 });
      expect(first.scoredSeasons).to.deep.equal(["s1"]);
      expect(first.asOf).to.equal(Math.floor(TEST_NOW / CYCLE_SECONDS) * CYCLE_SECONDS);
      const scores = await store.db.selectFrom("scores").selectAll().orderBy("agent_id").execute();
      expect(scores.map((s) => [s.agent_id, s.score, s.reason, s.rank])).to.deep.equal([
        ["alpha", 30, null, 1],
        ["beta", null, "no_snapshots", null],
      ]);
      expect(await log.size(store.db)).to.equal(7); // two manifests joined the log

      const second = await runCycle(deps);
      expect(second.anchored).to.deep.equal({ anchorIndex: 1, treeSize: 7 }); // the manifests' anchor
      expect(second.scoredSeasons).to.deep.equal([]);
      const third = await runCycle(deps);
      expect(third.anchored).to.deep.equal({ anchorIndex: 1, treeSize: 7 });
      expect([
        await count(store, "anchors"),
        await count(store, "scores"),
        await log.size(store.db),
      ]).to.deep.equal([2, 2, 7]);
      expect(keeper.posted.map((h) => h.treeSize)).to.deep.equal([5, 7]);

      now += CYCLE_SECONDS;
      const nextHour = await runCycle(deps);
      expect(nextHour.scoreRows).to.equal(2);
      // A new hour scores again, offering the anchored scores of the hour before as creator inputs.
      expect(scorer.headers[1]!.priorScores.map((p) => p.agentId).sort()).to.deep.equal(["alpha", "beta"]);
    });

    it("scores nothing while the head is still pending and nothing is anchored", async () => {
      const keeper = new FakeKeeper();
      keeper.pendingCalls = 1;
      const report = await runCycle({ store, keeper, scorer: new CountingScorer(), now: () => now });
      expect(report.anchored).to.equal(undefined);
      expect(report.scoreRows).to.equal(0);
      expect(await count(store, "scores")).to.equal(0);
      const later = await runCycle({ store, keeper, scorer: new CountingScorer(), now: () => now });
      expect(later.anchored).to.deep.equal({ anchorIndex: 0, treeSize: 5 });
      expect(keeper.posted).to.have.length(1);
    });

    it("gives the scorer only records below the anchored size", async () => {
      const header = await loadSeasonHeader(store.db, "s1", TEST_NOW, 3);
      expect(header.agents.map((a) => a.agentId)).to.deep.equal(["alpha", "beta"]);
      const agents = [];
      for await (const agent of streamAgentInputs(store.db, header, 3)) agents.push(agent);
      expect(agents.map((a) => [a.agentId, a.records.map((r) => r.leafIndex)])).to.deep.equal([
        ["alpha", [2]],
        ["beta", []],
      ]);
      const early = await loadSeasonHeader(store.db, "s1", TEST_NOW, 1);
      expect(early.agents.map((a) => a.agentId)).to.deep.equal(["alpha"]);
    });

    it("streams agents in chunks, each with exactly its own records", async () => {
      const ingestMore = async (id: string) => {
        const { agent } = await registerTestAgent(ingest, id);
        await ingest(await sign("Snapshot", snapshot(id, TEST_NOW - 50), agent));
      };
      for (let i = 0; i < 5; i++) await ingestMore(`z${i}`);
      const size = await log.size(store.db);
      const header = await loadSeasonHeader(store.db, "s1", TEST_NOW, size);
      let count = 0;
      for await (const agent of streamAgentInputs(store.db, header, size, 2)) {
        count += 1;
        expect(
          new Set(agent.records.map((r) => (r.body as { message: { agentId: string } }).message.agentId)),
        ).to.satisfy((ids: Set<string>) => ids.size === 0 || (ids.size === 1 && ids.has(agent.agentId)));
      }
      expect(count).to.equal(7); // alpha, beta and z0…z4, in chunks of 2
    });
  });
}
