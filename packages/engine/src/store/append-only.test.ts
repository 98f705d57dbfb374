import { expect } from "chai";
import { sql } from "kysely";
import { isAppendOnlyViolation } from "./errors";
import { migrateToLatest, type Store } from "./open";
import { APPEND_ONLY_TABLES } from "./schema";
import { testBackends } from "../../test-support/store/testing";

const SEAL = `0x${"ab".repeat(32)}`;

/** One row in every append-only table, so each refusal below has something to refuse. */
async function fillEveryTable(store: Store): Promise<void> {
  const db = store.db;
  await db
    .insertInto("seasons")
    .values({ id: "s1", name: "S1", starts_at: 0, ends_at: 10, closed_at: null, created_at: 0 })
    .execute();
  await db.insertInto("merkle_leaves").values({ leaf_index: 0, seal: SEAL, appended_at: 1 }).execute();
  await db.insertInto("merkle_nodes").values({ level: 0, idx: 0, hash: SEAL }).execute();
  await db
    .insertInto("records")
    .values({
      seal: SEAL,
      kind: "registration",
      agent_id: "a1",
      season_id: "s1",
      body: "{}",
      signer: null,
      signature: null,
      cosignature: null,
      leaf_index: 0,
      received_at: 1,
    })
    .execute();
  const addr = `0x${"11".repeat(20)}`;
  await db
    .insertInto("agents")
    .values({
      id: "a1",
      season_id: "s1",
      creator: addr,
      style: "momentum",
      agent_key: addr,
      registration_seal: SEAL,
      registered_at: 1,
    })
    .execute();
  await db
    .insertInto("anchors")
    .values({
      anchor_index: 0,
      tree_size: 1,
      root: SEAL,
      chain_id: 31337,
      registry: addr,
      tx_hash: SEAL,
      block_number: 5,
      block_hash: SEAL,
      anchored_at: 2,
      recorded_at: 3,
    })
    .execute();
  await db
    .insertInto("keeper_attempts")
    .values({
      tree_size: 1,
      root: SEAL,
      chain_id: 31337,
      registry: addr,
      nonce: 0,
      tx_hash: null,
      max_fee_per_gas: null,
      max_priority_fee_per_gas: null,
      status: "simulated",
      error: null,
      at: 1,
    })
    .execute();
  await db
    .insertInto("scores")
    .values({
      agent_id: "a1",
      season_id: "s1",
      as_of: 5,
      formula: "augur-score/v1",
      score: null,
      reason: "too_few_decisions",
      rank: null,
      terms: "{}",
      seal: SEAL,
      created_at: 5,
    })
    .execute();
}

const SET_CLAUSE: Record<(typeof APPEND_ONLY_TABLES)[number], string> = {
  records: "body = '{\"x\":1}'",
  agents: "style = 'discretionary'",
  merkle_leaves: "appended_at = 99",
  merkle_nodes: "hash = 'x'",
  anchors: "root = 'x'",
  keeper_attempts: "status = 'failed'",
  scores: "score = 99",
};

for (const backend of testBackends()) {
  describe(`store on ${backend.name}: schema and append-only rows`, () => {
    let store: Store;
    before(async () => {
      store = await backend.open();
      await fillEveryTable(store);
    });
    after(async () => store.close());

    it("migrates once: a second run applies nothing", async () => {
      expect(await migrateToLatest(store)).to.deep.equal([]);
    });

    for (const table of APPEND_ONLY_TABLES) {
      it(`refuses UPDATE of ${table} in the database itself`, async () => {
        const error = await sql
          .raw(`UPDATE ${table} SET ${SET_CLAUSE[table]}`)
          .execute(store.db)
          .then(
            () => undefined,
            (e: unknown) => e,
          );
        expect(isAppendOnlyViolation(error), String(error)).to.equal(true);
        expect(String(error)).to.contain(`${table} is append-only`);
      });

      it(`refuses DELETE from ${table} in the database itself`, async () => {
        const error = await sql
          .raw(`DELETE FROM ${table}`)
          .execute(store.db)
          .then(
            () => undefined,
            (e: unknown) => e,
          );
        expect(isAppendOnlyViolation(error), String(error)).to.equal(true);
        const count = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM ${sql.table(table)}`.execute(
          store.db,
        );
        expect(Number(count.rows[0]!.n)).to.equal(1);
      });
    }

    if (backend.name === "postgres") {
      it("refuses TRUNCATE of a sealed table", async () => {
        const error = await sql`TRUNCATE records CASCADE`.execute(store.db).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(isAppendOnlyViolation(error), String(error)).to.equal(true);
      });
    }

    it("lets the operator close a season (seasons are configuration, not sealed)", async () => {
      await store.db.updateTable("seasons").set({ closed_at: 7 }).where("id", "=", "s1").execute();
      const row = await store.db
        .selectFrom("seasons")
        .select("closed_at")
        .where("id", "=", "s1")
        .executeTakeFirstOrThrow();
      expect(row.closed_at).to.equal(7);
    });

    it("refuses a score row with neither score nor reason", async () => {
      const error = await store.db
        .insertInto("scores")
        .values({
          agent_id: "a2",
          season_id: "s1",
          as_of: 5,
          formula: "augur-score/v1",
          score: null,
          reason: null,
          rank: null,
          terms: "{}",
          seal: SEAL,
          created_at: 5,
        })
        .execute()
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).to.be.instanceOf(Error);
    });
  });
}
