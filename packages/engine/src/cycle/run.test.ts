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
} from "../../test-support/records/testing";
import type { Store } from "../store/open";
import { testBackends } from "../../test-support/store/testing";
import { agentInputs, loadSeasonHeader } from "./inputs";
import { CYCLE_SECONDS, runCycle } from "./run";
import { anchorStep, scoreStep } from "./steps";
import { SeasonRows } from "../store/season-rows";
import type { AgentInputs } from "./seams";
import { CountingScorer, FakeKeeper } from "../../test-support/cycle/testing";

const snapshotSeals = (a: AgentInputs) =>
  Array.from({ length: a.records.snapshots.length }, (_, i) => a.records.snapshots.seal(i));

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
    const ingest = (s: Submission) =>
      ingestRecord(store, s, { chainId: TEST_CHAIN_ID, now: () => now, recordGrace: Infinity });

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
      const report = await runCycle({
        store,
        steps: [anchorStep()],
        now: () => now,
        progress: (l) => lines.push(l),
      });
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
      const deps = { store, steps: [anchorStep(keeper), scoreStep(scorer)], now: () => now };

      const first = await runCycle(deps);
      expect(first.anchored).to.deep.equal({ anchorIndex: 0, treeSize: 5 });
      expect(first.scoredSeasons).to.deep.equal(["s1"]);
      expect(first.asOf).to.equal(Math.floor(TEST_NOW / CYCLE_SECONDS) * CYCLE_SECONDS);
      const scores = await store.db.selectFrom("scores").selectAll().orderBy("agent_id").execute();
      expect(scores.map((s) => [s.agent_id, s.score, s.reason, s.rank])).to.deep.equal([
        ["alpha", 30, null, 1],
        ["beta", null, "no_snapshots", null],
      ]);
      expect(await store.log.size(store.db)).to.equal(7); // two manifests joined the log
      // ... and were anchored in the same pass: verifiable the hour they are written.
      expect(first.sealedAnchored).to.deep.equal({ anchorIndex: 1, treeSize: 7 });

      const second = await runCycle(deps);
      expect(second.anchored).to.deep.equal({ anchorIndex: 1, treeSize: 7 }); // the manifests' anchor
      expect(second.scoredSeasons).to.deep.equal([]);
      const third = await runCycle(deps);
      expect(third.anchored).to.deep.equal({ anchorIndex: 1, treeSize: 7 });
      expect([
        await count(store, "anchors"),
        await count(store, "scores"),
        await store.log.size(store.db),
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
      const report = await runCycle({
        store,
        steps: [anchorStep(keeper), scoreStep(new CountingScorer())],
        now: () => now,
      });
      expect(report.anchored).to.equal(undefined);
      expect(report.scoreRows).to.equal(0);
      expect(await count(store, "scores")).to.equal(0);
      const later = await runCycle({
        store,
        steps: [anchorStep(keeper), scoreStep(new CountingScorer())],
        now: () => now,
      });
      expect(later.anchored).to.deep.equal({ anchorIndex: 0, treeSize: 5 });
      // Head 5 was posted once (then mined); 7 is the manifests this later pass sealed and anchored.
      expect(keeper.posted.map((h) => h.treeSize)).to.deep.equal([5, 7]);
    });

    it("gives the scorer only records below the anchored size", async () => {
      const header = await loadSeasonHeader(store.db, "s1", TEST_NOW, 3);
      expect(header.agents.map((a) => a.agentId)).to.deep.equal(["alpha", "beta"]);
      const rows = new SeasonRows("s1");
      await rows.extendTo(store, 3);
      const leaf2 = await store.db
        .selectFrom("merkle_leaves")
        .select("seal")
        .where("leaf_index", "=", 2)
        .executeTakeFirstOrThrow();
      expect([...agentInputs(header, rows)].map((a) => [a.agentId, snapshotSeals(a)])).to.deep.equal([
        ["alpha", [leaf2.seal]],
        ["beta", []],
      ]);
      const early = await loadSeasonHeader(store.db, "s1", TEST_NOW, 1);
      expect(early.agents.map((a) => a.agentId)).to.deep.equal(["alpha"]);
    });

    it("gives every agent exactly its own records, in log order", async () => {
      const ingestMore = async (id: string) => {
        const { agent } = await registerTestAgent(ingest, id);
        await ingest(await sign("Snapshot", snapshot(id, TEST_NOW - 50), agent));
      };
      for (let i = 0; i < 5; i++) await ingestMore(`z${i}`);
      const size = await store.log.size(store.db);
      const header = await loadSeasonHeader(store.db, "s1", TEST_NOW, size);
      const rows = new SeasonRows("s1");
      await rows.extendTo(store, size);
      let count = 0;
      for (const agent of agentInputs(header, rows)) {
        count += 1;
        const stored = await store.db
          .selectFrom("records")
          .select("seal")
          .where("agent_id", "=", agent.agentId)
          .where("kind", "=", "snapshot")
          .orderBy("leaf_index")
          .execute();
        expect(snapshotSeals(agent)).to.deep.equal(stored.map((r) => r.seal));
      }
      expect(count).to.equal(7); // alpha, beta and z0…z4
    });
  });
}
