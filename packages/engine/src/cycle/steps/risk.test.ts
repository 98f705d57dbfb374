import { expect } from "chai";
import { seal, sealRiskRow, type Hex32, type RiskRow } from "@augur/scorer";
import { ingestRecord, type Submission } from "../../records/ingest";
import {
  addTestSeason,
  registerTestAgent,
  sign,
  snapshot,
  TEST_CHAIN_ID,
  TEST_NOW,
} from "../../../test-support/records/testing";
import { isAppendOnlyViolation } from "../../store/errors";
import { riskRowsAt } from "../../store/queries/risk";
import type { Store } from "../../store/open";
import { testBackends } from "../../../test-support/store/testing";
import { CYCLE_SECONDS, runCycle } from "../run";
import { anchorStep, riskStep, type CycleStep } from "./index";
import { FakeKeeper } from "../../../test-support/cycle/testing";

/** Distinct seals of every risk row and component reading: each joins the log once. */
async function riskSeals(store: Store): Promise<number> {
  const rows = await store.db.selectFrom("risk_rows").select("seal").execute();
  const readings = await store.db.selectFrom("risk_readings").select("seal").execute();
  return new Set([...rows, ...readings].map((r) => r.seal)).size;
}

async function riskRowCount(store: Store): Promise<number> {
  const row = await store.db
    .selectFrom("risk_rows")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

for (const backend of testBackends()) {
  describe(`hourly cycle: sealed risk rows on ${backend.name}`, () => {
    let store: Store;
    let now = TEST_NOW;
    const ingest = (s: Submission) =>
      ingestRecord(store, s, { chainId: TEST_CHAIN_ID, now: () => now, recordGrace: Infinity });
    // The risk step reads anchored records only, so every cycle here has a keeper.
    let keeper: FakeKeeper;
    let alpha: Awaited<ReturnType<typeof registerTestAgent>>["agent"];
    const cycle = (steps: CycleStep[] = [anchorStep(keeper), riskStep()]) =>
      runCycle({ store, steps, now: () => now });

    beforeEach(async () => {
      now = TEST_NOW;
      keeper = new FakeKeeper();
      store = await backend.open();
      await addTestSeason(store);
      const { agent: a } = await registerTestAgent(ingest, "alpha");
      alpha = a;
      await registerTestAgent(ingest, "beta");
      for (const t of [300, 200, 100])
        await ingest(await sign("Snapshot", snapshot("alpha", TEST_NOW - t), a));
    });
    afterEach(async () => store.close());

    it("seals one row and six component readings per vault once per hour and appends each seal to the log", async () => {
      const before = await store.log.size(store.db);
      const first = await cycle();
      expect(first.riskRows).to.equal(2);
      const rows = await store.db.selectFrom("risk_rows").selectAll().orderBy("vault_id").execute();
      expect(rows.map((r) => [r.vault_id, r.as_of])).to.deep.equal([
        ["alpha", first.asOf],
        ["beta", first.asOf],
      ]);
      expect(await riskSeals(store)).to.equal(2 + 12);
      expect(await store.log.size(store.db)).to.equal(before + 2 + 12);
      for (const r of rows) {
        // The stored text is what was sealed, and the seal is the log leaf the row points at.
        const sealed = JSON.parse(r.body) as RiskRow & { methodology: string };
        expect(seal(sealed)).to.equal(r.seal);
        const { methodology, ...row } = sealed;
        expect(methodology).to.equal("risk-score/v1");
        expect(sealRiskRow(row)).to.equal(r.seal);
        expect(await store.log.leafIndexOf(store.db, r.seal as Hex32)).to.equal(r.leaf_index);
        expect(r.leaf_index).to.be.at.least(before);
      }

      now += 60; // same hour: nothing new, in the table or the log
      const again = await cycle();
      expect(again.riskRows).to.equal(0);
      expect(await riskRowCount(store)).to.equal(2);
      expect(await store.log.size(store.db)).to.equal(before + 2 + 12);

      now += CYCLE_SECONDS; // next hour, nothing new: every vault read, nothing stored or appended
      const next = await cycle();
      expect(next.riskRows).to.equal(2);
      expect(await riskRowCount(store)).to.equal(2);
      expect(await store.log.size(store.db)).to.equal(before + 2 + 12);
      const served = await riskRowsAt(store.db, "s1", next.asOf);
      expect(served.hour).to.equal(next.asOf);
      expect(served.rows.map((r) => [r.vault_id, r.as_of, r.seal])).to.deep.equal(
        rows.map((r) => [r.vault_id, first.asOf, r.seal]),
      );

      now += CYCLE_SECONDS; // a new snapshot: alpha's changed readings (worst fall) are stored, beta's are not
      await ingest(await sign("Snapshot", snapshot("alpha", now - 90), alpha));
      const third = await cycle();
      const stored = await store.db
        .selectFrom("risk_readings")
        .select(["vault_id", "component"])
        .where("as_of", "=", third.asOf)
        .execute();
      expect(stored).to.deep.include({ vault_id: "alpha", component: "worst_fall" });
      expect(new Set(stored.map((r) => r.vault_id))).to.deep.equal(new Set(["alpha"]));
      const later = await store.db
        .selectFrom("risk_rows")
        .selectAll()
        .where("as_of", "=", third.asOf)
        .execute();
      expect(later.every((r) => r.vault_id === "alpha")).to.equal(true);
      // One leaf per distinct risk seal, and the snapshot's.
      expect(await store.log.size(store.db)).to.equal(before + 1 + (await riskSeals(store)));
      for (const r of later)
        expect(await store.log.leafIndexOf(store.db, r.seal as Hex32)).to.equal(r.leaf_index);
    });

    it("publishes no score below 50 % measurable, with the share and a reason", async () => {
      await cycle();
      const beta = await store.db
        .selectFrom("risk_rows")
        .selectAll()
        .where("vault_id", "=", "beta")
        .executeTakeFirstOrThrow();
      expect(beta.measurable_share).to.be.below(0.5);
      expect(beta.score).to.equal(null);
      expect(beta.reason).to.equal("insufficient_measurable");
      expect((JSON.parse(beta.body) as RiskRow).score).to.equal(null);
    });

    it("writes no risk rows without the risk step, nor from records not yet anchored", async () => {
      const unanchored = await runCycle({ store, steps: [anchorStep(), riskStep()], now: () => now });
      expect([unanchored.anchored, unanchored.riskRows]).to.deep.equal([undefined, 0]);
      now += CYCLE_SECONDS;
      const withoutStep = await cycle([anchorStep(keeper)]);
      expect([withoutStep.anchored?.treeSize, withoutStep.riskRows]).to.deep.equal([5, 0]);
      expect(await riskRowCount(store)).to.equal(0);
    });

    it("the database refuses UPDATE and DELETE on risk rows", async () => {
      await cycle();
      const update = store.db.updateTable("risk_rows").set({ score: 1 }).where("vault_id", "=", "alpha");
      const remove = store.db.deleteFrom("risk_rows").where("vault_id", "=", "alpha");
      for (const attempt of [() => update.execute(), () => remove.execute()]) {
        const error = await attempt().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(isAppendOnlyViolation(error), String(error)).to.equal(true);
      }
      expect(await riskRowCount(store)).to.equal(2);
    });
  });
}
