import { expect } from "chai";
import { sql } from "kysely";
import { appendEngineRecords } from "./append";
import { openStore, type Store } from "./open";
import { grantServingRole } from "./roles";
import { GUARDED_TABLES } from "./schema";
import { testBackends } from "../../test-support/store/testing";
import { attempt, fillEveryTable } from "../../test-support/store/sealed-rows";

/** The serving role's login (no ownership), set up by scripts/ci/start-postgres.sh. */
const SERVING_URL = process.env.TEST_DATABASE_SERVING_URL;
const postgres = testBackends().find((b) => b.name === "postgres");

if (postgres && SERVING_URL) {
  describe("PostgreSQL roles: the serving role cannot lift append-only", () => {
    let owner: Store;
    let serving: Store;
    const role = new URL(SERVING_URL).username;

    before(async () => {
      owner = await postgres.open();
      await fillEveryTable(owner);
      await grantServingRole(owner.db, role);
      await grantServingRole(owner.db, role); // idempotent
      serving = await openStore({ kind: "postgres", url: SERVING_URL, schema: owner.schema! });
    });
    after(async () => {
      await serving?.close();
      await owner?.close();
    });

    it("opens the owner's schema (already migrated), reads, appends to the log and closes a season", async () => {
      const [appended] = await serving.db
        .transaction()
        .execute((trx) =>
          appendEngineRecords(trx, [{ kind: "score", agentId: "a1", seasonId: "s1", body: { n: 1 } }], 9),
        );
      expect(appended!.created).to.equal(true);
      expect(await serving.log.size(serving.db)).to.equal(2);
      await serving.db.updateTable("seasons").set({ closed_at: 8 }).where("id", "=", "s1").execute();
    });

    it("refuses every way to change a sealed row or its guard: DDL on tables, triggers and the trigger function", async () => {
      const triggers = async () =>
        Number(
          (
            await sql<{
              n: number;
            }>`SELECT COUNT(*) AS n FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
              JOIN pg_namespace n ON n.oid = c.relnamespace
              WHERE n.nspname = ${owner.schema!} AND NOT t.tgisinternal AND t.tgenabled = 'O'`.execute(
              owner.db,
            )
          ).rows[0]!.n,
        );
      const before = await triggers();
      expect(before).to.be.at.least(GUARDED_TABLES.length * 2);
      for (const table of GUARDED_TABLES) {
        const column = (
          await sql<{ c: string }>`SELECT column_name AS c FROM information_schema.columns
            WHERE table_schema = ${owner.schema!} AND table_name = ${table} ORDER BY ordinal_position LIMIT 1`.execute(
            owner.db,
          )
        ).rows[0]!.c;
        for (const statement of [
          `ALTER TABLE "${table}" DISABLE TRIGGER ALL`,
          `ALTER TABLE "${table}" DISABLE TRIGGER "${table}_append_only"`,
          `DROP TRIGGER "${table}_append_only" ON "${table}"`,
          `DROP TABLE "${table}" CASCADE`,
          `ALTER TABLE "${table}" RENAME TO "${table}_old"`,
          `UPDATE "${table}" SET "${column}" = "${column}"`,
          `DELETE FROM "${table}"`,
          `TRUNCATE "${table}" CASCADE`,
        ]) {
          const error = (await attempt(serving, statement)) as { code?: string } | undefined;
          expect(error, statement).to.be.instanceOf(Error);
          expect(error!.code, `${statement}: ${String(error)}`).to.equal("42501"); // insufficient_privilege
        }
      }
      for (const statement of [
        "DROP FUNCTION augur_refuse_change() CASCADE",
        "CREATE OR REPLACE FUNCTION augur_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$",
        "ALTER FUNCTION augur_refuse_change() RENAME TO gone",
        "SET session_replication_role = replica",
      ]) {
        const error = (await attempt(serving, statement)) as { code?: string } | undefined;
        expect(error, statement).to.be.instanceOf(Error);
        expect(error!.code, `${statement}: ${String(error)}`).to.equal("42501");
      }
      expect(await triggers()).to.equal(before);
    });
  });
}
