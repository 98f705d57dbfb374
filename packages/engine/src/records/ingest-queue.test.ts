import { expect } from "chai";
import { sql } from "kysely";
import type { Store } from "../store/open";
import { testBackends } from "../../test-support/store/testing";
import {
  addTestSeason,
  registerTestAgent,
  sign,
  snapshot,
  TEST_CHAIN_ID,
  TEST_NOW,
} from "../../test-support/records/testing";
import { ingestRecord, type IngestContext, type Submission } from "./ingest";
import { MAX_BATCH, RecordIngestor, storesIn } from "./ingest-queue";

const ctx: IngestContext = { chainId: TEST_CHAIN_ID, now: () => TEST_NOW, recordGrace: Infinity };

/** Counts the transactions a store opens from now on. */
function countTransactions(store: Store): () => number {
  let opened = 0;
  const open = store.db.transaction.bind(store.db);
  store.db.transaction = () => {
    opened += 1;
    return open();
  };
  return () => opened;
}

/** `count` snapshots of agent `id`, one every 30 s, as its key signs them. */
async function snapshots(store: Store, id: string, count: number): Promise<Submission[]> {
  const { agent } = await registerTestAgent((s) => ingestRecord(store, s, ctx), id);
  return Promise.all(
    Array.from({ length: count }, (_, i) => sign("Snapshot", snapshot(id, TEST_NOW - 3600 + 30 * i), agent)),
  );
}

for (const backend of testBackends()) {
  describe(`the record ingestor's batches on ${backend.name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await backend.open();
      await addTestSeason(store);
    });
    afterEach(async () => store.close());

    it("stores a burst of checked records in one transaction per batch, in arrival order", async () => {
      const burst = await snapshots(store, "alpha", MAX_BATCH + 6);
      const transactions = countTransactions(store);
      const ingestor = new RecordIngestor(storesIn(store, ctx), ctx);
      const results = await Promise.all(burst.map((s) => ingestor.ingest(s)));
      // The first record finds the store free and goes alone; the rest wait and go in full batches.
      expect(transactions()).to.equal(1 + Math.ceil((burst.length - 1) / MAX_BATCH));
      expect(results.map((r) => r.leafIndex)).to.deep.equal(burst.map((_, i) => i + 1));
      expect(results.every((r) => r.created)).to.equal(true);
    });

    it("spaces its commits when asked: records arriving meanwhile wait and go in together", async () => {
      const records = await snapshots(store, "alpha", 4);
      const transactions = countTransactions(store);
      const spacing = 300;
      const ingestor = new RecordIngestor(storesIn(store, ctx), ctx, undefined, spacing);
      const started = Date.now();
      const first = await ingestor.ingest(records[0]!);
      // The store is free at once for the first; the next three arrive one by one while it waits.
      const rest: Promise<{ leafIndex: number }>[] = [];
      for (const record of records.slice(1)) {
        rest.push(ingestor.ingest(record));
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const later = await Promise.all(rest);
      expect(Date.now() - started).to.be.at.least(spacing);
      expect(transactions()).to.equal(2);
      expect([first, ...later].map((r) => r.leafIndex)).to.deep.equal([1, 2, 3, 4]);
    });
  });
}

describe("the record ingestor when the database refuses one record of a batch (sqlite)", () => {
  it("stores the others one by one and answers that one with the database's error", async () => {
    const store = (await testBackends()[0]!.open()) as Store;
    try {
      await addTestSeason(store);
      const good = await snapshots(store, "alpha", 2);
      const [poison] = await snapshots(store, "poison", 1);
      // A fault only the database sees (no rule of ingestion refuses this record).
      await sql`CREATE TRIGGER poison BEFORE INSERT ON record_moments WHEN NEW.agent_id = 'poison'
        BEGIN SELECT RAISE(ABORT, 'disk says no'); END`.execute(store.db);
      const before = await store.log.size(store.db);
      const ingestor = new RecordIngestor(storesIn(store, ctx), ctx);
      const answers = await Promise.allSettled([good[0]!, poison!, good[1]!].map((s) => ingestor.ingest(s)));
      expect(answers.map((a) => a.status)).to.deep.equal(["fulfilled", "rejected", "fulfilled"]);
      expect(String((answers[1] as PromiseRejectedResult).reason)).to.contain("disk says no");
      const leaves = answers.flatMap((a) => (a.status === "fulfilled" ? [a.value.leafIndex] : []));
      expect(leaves).to.deep.equal([before, before + 1]);
      expect(await store.log.size(store.db)).to.equal(before + 2);
      const stored = await store.db
        .selectFrom("records")
        .select("agent_id")
        .where("agent_id", "=", "poison")
        .execute();
      expect(stored.map((r) => r.agent_id)).to.deep.equal(["poison"]); // its registration only
    } finally {
      await store.close();
    }
  });
});
