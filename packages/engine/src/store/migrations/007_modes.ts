import { sql, type Kysely, type Migration } from "kysely";
import type { DialectName } from "../dialect";
import { MODE_RECORD_KINDS, MODE_RECORDS_TABLE } from "../schema";
import { appendOnlyStatements, createRefuseFunction } from "./append-only";

/**
 * Modes, operator notices, methodology notices and final receipts: sealed rows in the order
 * they were written (`seq`). `body` is the sealed canonical text (`seal` is its sha256); every
 * kind but the receipt is a leaf of the log at `leaf_index` (a receipt's proof is re-running it
 * on the chain). Append-only like scores: a mode is never rewritten, a later row supersedes it.
 */
export function modes(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const kinds = sql.join(MODE_RECORD_KINDS.map((k) => sql.lit(k)));
      await db.schema
        .createTable(MODE_RECORDS_TABLE)
        .addColumn("seq", "bigint", (c) => c.primaryKey())
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("day", "text", (c) => c.notNull())
        .addColumn("body", "text", (c) => c.notNull())
        .addColumn("seal", "text", (c) => c.notNull().unique())
        .addColumn("leaf_index", "bigint")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addCheckConstraint("mode_records_kind", sql`kind IN (${kinds})`)
        .addCheckConstraint("mode_records_leaf", sql`(kind = 'receipt') = (leaf_index IS NULL)`)
        .execute();
      await db.schema
        .createIndex("mode_records_by_kind")
        .on(MODE_RECORDS_TABLE)
        .columns(["kind", "seq"])
        .execute();
      await createRefuseFunction(db, dialect); // idempotent; keeps this migration self-contained
      for (const statement of appendOnlyStatements(dialect, MODE_RECORDS_TABLE)) await statement.execute(db);
    },
  };
}
