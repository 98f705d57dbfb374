import { expect } from "chai";
import { sql } from "kysely";
import { isAppendOnlyViolation } from "./errors";
import { migrateToLatest, type Store } from "./open";
import { APPEND_ONLY_TABLES } from "./schema";
import { testBackends } from "../../test-support/store/testing";
import { fillEveryTable, SEAL } from "../../test-support/store/sealed-rows";

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
