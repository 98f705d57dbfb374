import { sql, type Kysely, type Migration } from "kysely";
import type { DialectName } from "../dialect";
import { FINAL_NOTICE_TABLE } from "../schema";
import { appendOnlyStatements, createRefuseFunction } from "./append-only";
import { EXISTING_KEY } from "./012_insert_guards";

/**
 * The final notice: one sealed row at most (`id` is always 1), written by the archive's last
 * step after its seal is posted on chain. Append-only: the last word is never rewritten.
 */
export function finalNotice(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable(FINAL_NOTICE_TABLE)
        .addColumn("id", "integer", (c) => c.primaryKey().check(sql`id = 1`))
        .addColumn("body", "text", (c) => c.notNull())
        .addColumn("seal", "text", (c) => c.notNull().unique())
        .addColumn("chain_id", "integer", (c) => c.notNull())
        .addColumn("registry", "text", (c) => c.notNull())
        .addColumn("tx_hash", "text", (c) => c.notNull())
        .addColumn("block_number", "bigint", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
      await createRefuseFunction(db, dialect);
      for (const statement of appendOnlyStatements(dialect, FINAL_NOTICE_TABLE)) await statement.execute(db);
      if (dialect === "sqlite") {
        // REPLACE would swap the row without a DELETE trigger firing: any second insert is refused.
        await sql`CREATE TRIGGER final_notice_refuse_existing_key BEFORE INSERT ON final_notice
          WHEN EXISTS (SELECT 1 FROM final_notice)
          BEGIN SELECT RAISE(ABORT, ${sql.lit(`augur: final_notice is append-only (${EXISTING_KEY})`)}); END`.execute(
          db,
        );
      }
    },
  };
}
