import { expect } from "chai";
import { merkleRoot, seal as sealOf, type Hex32 } from "@augur/scorer";
import { ingestRecord, type Submission } from "../records/ingest";
import {
  addTestSeason,
  decision,
  registerTestAgent,
  sign,
  snapshot,
  trade,
  TEST_CHAIN_ID,
  TEST_NOW,
} from "../../test-support/records/testing";
import { openStore, type Store } from "../store/open";
import { recordBody } from "../store/record-bodies";
import { AugurScorer } from "./augur-scorer";
import { runCycle } from "./run";
import { anchorStep, scoreStep } from "./steps";
import { FakeKeeper } from "../../test-support/cycle/testing";

describe("cycle with augur-score/v1 (packages/scorer) behind the Scorer seam", () => {
  let store: Store;
  const snapshotSeals: Hex32[] = [];
  const decisionSeals: Hex32[] = [];
  const tradeSeals: Hex32[] = [];

  before(async () => {
    store = await openStore({ kind: "sqlite", file: ":memory:" });
    await addTestSeason(store);
    let now = TEST_NOW;
    const ingest = (s: Submission) =>
      ingestRecord(store, s, { chainId: TEST_CHAIN_ID, now: () => now, recordGrace: Infinity });
    const { agent } = await registerTestAgent(ingest, "alpha");
    await registerTestAgent(ingest, "beta");
    // alpha: four daily snapshots (+2 %, +1 %, −1 %), six own decisions, two trades.
    const navs = ["1000000000", "1020000000", "1030200000", "1019898000"];
    for (const [day, nav] of navs.entries()) {
      now = TEST_NOW + day * 86400;
      const s = await ingest(await sign("Snapshot", snapshot("alpha", now - 60, nav), agent));
      snapshotSeals.push(s.seal);
      decisionSeals.push((await ingest(await sign("Decision", decision("alpha", now - 30), agent))).seal);
      if (day < 2) {
        const hold = { ...decision("alpha", now - 20), action: "hold" };
        decisionSeals.push((await ingest(await sign("Decision", hold, agent))).seal);
      }
    }
    tradeSeals.push((await ingest(await sign("Trade", trade("alpha", TEST_NOW + 100), agent))).seal);
    const sell = { ...trade("alpha", TEST_NOW + 200), side: "sell" };
    tradeSeals.push((await ingest(await sign("Trade", sell, agent))).seal);
  });
  after(async () => store.close());

  it("scores the eligible agent, gives the other a reason, and stores manifests whose seal is the scorer's", async () => {
    const now = TEST_NOW + 4 * 86400;
    const report = await runCycle({
      store,
      steps: [anchorStep(new FakeKeeper()), scoreStep(new AugurScorer())],
      now: () => now,
    });
    expect(report.scoreRows).to.equal(2);
    const rows = await store.db
      .selectFrom("scores")
      .innerJoin("records", "records.seal", "scores.seal")
      .select([
        "scores.agent_id",
        "scores.score",
        "scores.reason",
        "scores.rank",
        "scores.formula",
        recordBody().as("body"),
        "scores.seal",
      ])
      .orderBy("scores.agent_id")
      .execute();
    const [alpha, beta] = rows;
    expect(alpha!.formula).to.equal("augur-score/v1");
    expect(alpha!.score).to.be.a("number").within(0, 100);
    expect(alpha!.rank).to.equal(1);
    expect(beta).to.include({ score: null, rank: null });
    expect(beta!.reason).to.be.a("string").and.not.equal("");
    const manifest = JSON.parse(alpha!.body);
    expect(sealOf(manifest)).to.equal(alpha!.seal);
    // The manifest names the snapshot records the engine sealed and anchored.
    expect(manifest.inputs).to.include({
      snapshot_count: 4,
      first_snapshot_seal: snapshotSeals[0],
      last_snapshot_seal: snapshotSeals[3],
      own_decision_count: 6,
      trade_count: 2,
    });
    expect(manifest.inputs.snapshot_root).to.equal(merkleRoot(snapshotSeals));
    // Version 2: decisions, trades and calls bound by root, and the log size they were read below.
    expect(manifest.manifest_version).to.equal(2);
    expect(manifest.inputs.decision_root).to.equal(merkleRoot(decisionSeals));
    expect(manifest.inputs.trade_root).to.equal(merkleRoot(tradeSeals));
    expect(manifest.inputs.call_root).to.equal(merkleRoot([]));
    // The pass anchors twice: the inputs are read below the first anchor, the second covers the
    // score rows the pass wrote.
    const anchored = await store.db
      .selectFrom("anchors")
      .select("tree_size")
      .orderBy("tree_size", "desc")
      .execute();
    expect(anchored.length).to.be.at.least(2);
    expect(manifest.inputs.inputs_log_size).to.equal(anchored[1]!.tree_size);
  });
});
