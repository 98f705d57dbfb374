import { expect } from "chai";
import { normalizeMessage, sealedRecord } from "@augur/records";
import { recomputeManifest } from "@augur/scorer";
import { ingestRecord, type Submission } from "../records/ingest";
import { appendEngineRecords } from "../store/append";
import { openStore, type Store } from "../store/open";
import {
  addTestSeason,
  decision,
  registration,
  sign,
  snapshot,
  testWallet,
  TEST_CHAIN_ID,
  TEST_NOW,
} from "../../test-support/records/testing";
import { FakeKeeper } from "../../test-support/cycle/testing";
import { AugurScorer } from "./augur-scorer";
import { runCycle } from "./run";
import { anchorStep, scoreStep } from "./steps";
import { recordBody } from "../store/record-bodies";

// Issue 17, hole 2: a record the scorer refuses that got into the store anyway (a bug, a
// migration) costs its agent a sealed null score naming it; every other agent and season goes on.
describe("cycle isolation: one unscorable record stops nobody else", () => {
  let store: Store;
  let poison: string;
  const DAY = 86400;

  before(async () => {
    store = await openStore({ kind: "sqlite", file: ":memory:" });
    let now = TEST_NOW;
    const ingest = (s: Submission) =>
      ingestRecord(store, s, { chainId: TEST_CHAIN_ID, now: () => now, recordGrace: Infinity });
    for (const season of ["s1", "s2"]) await addTestSeason(store, season);
    const keys = new Map(["alpha", "beta", "gamma"].map((id) => [id, testWallet(`isolation ${id}`)]));
    const creator = testWallet("isolation creator");
    for (const [id, season] of [
      ["alpha", "s1"],
      ["beta", "s1"],
      ["gamma", "s2"],
    ] as const) {
      const key = keys.get(id)!;
      await ingest(await sign("Registration", registration(id, key, creator, season), key, creator));
    }
    // alpha (s1) and gamma (s2): eligible, four daily snapshots and five own decisions each.
    for (let day = 0; day < 5; day += 1) {
      now = TEST_NOW + day * DAY;
      for (const [id, season] of [
        ["alpha", "s1"],
        ["gamma", "s2"],
      ] as const) {
        const key = keys.get(id)!;
        if (day < 4)
          await ingest(await sign("Snapshot", snapshot(id, now - 60, `${1000 + day}000000`, season), key));
        await ingest(await sign("Decision", { ...decision(id, now - 30), seasonId: season }, key));
      }
    }
    // beta (s1): a snapshot with NAV 0, planted past ingestion (which refuses it).
    const message = normalizeMessage("Snapshot", snapshot("beta", TEST_NOW + 10, "0"));
    await store.db.transaction().execute(async (trx) => {
      const [planted] = await appendEngineRecords(
        trx,
        [
          {
            kind: "snapshot",
            agentId: "beta",
            seasonId: "s1",
            body: sealedRecord("Snapshot", TEST_CHAIN_ID, message),
          },
        ],
        TEST_NOW + 10,
      );
      poison = planted!.seal;
    });
  });
  after(async () => store.close());

  it("seals beta's null score with reason invalid_input naming the planted seal; alpha and gamma are scored", async () => {
    const report = await runCycle({
      store,
      steps: [anchorStep(new FakeKeeper()), scoreStep(new AugurScorer())],
      now: () => TEST_NOW + 5 * DAY,
    });
    expect(report.scoredSeasons).to.have.members(["s1", "s2"]);
    const rows = await store.db
      .selectFrom("scores")
      .innerJoin("records", "records.seal", "scores.seal")
      .select(["scores.agent_id", "scores.score", "scores.reason", "scores.rank", recordBody().as("body")])
      .orderBy("scores.agent_id")
      .execute();
    const byAgent = new Map(rows.map((r) => [r.agent_id, r]));
    expect(byAgent.get("alpha")!.score).to.be.a("number");
    expect(byAgent.get("alpha")!.rank).to.equal(1);
    expect(byAgent.get("gamma")!.score).to.be.a("number");
    const beta = byAgent.get("beta")!;
    expect(beta).to.include({ score: null, rank: null, reason: "invalid_input" });
    const manifest = JSON.parse(beta.body);
    expect(manifest.inputs.invalid_input).to.deep.equal({
      seal: poison,
      path: "snapshots[0].nav",
      problem: "must be a positive decimal number",
    });
    expect(manifest.outputs).to.include({ score: null, reason: "invalid_input" });
    // The null row verifies like any other: step 3 recomputes its outputs.
    expect(recomputeManifest(manifest).ok).to.equal(true);
  });
});
