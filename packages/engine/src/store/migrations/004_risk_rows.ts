import { sql, type Kysely, type Migration } from "kysely";
import type { DialectName } from "../dialect";
import { RISK_ROWS_TABLE } from "../schema";
import { appendOnlyStatements, createRefuseFunction } from "./append-only";

/**
 * The hourly cycle's sealed vault risk rows (risk-score/v1), one per (season, as-of, vault).
 * `body` is the sealed text (sha256 of it is `seal`, a leaf of the log at `leaf_index`); the
 * other columns repeat it for sorting. `tvl_usd` is outside the seal: it only weights coverage.
 * Append-only like scores: its triggers are made here, not by 001 (the table is newer).
 */
export function riskRows(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable(RISK_ROWS_TABLE)
        .addColumn("season_id", "text", (c) => c.notNull().references("seasons.id"))
        .addColumn("as_of", "bigint", (c) => c.notNull())
        .addColumn("vault_id", "text", (c) => c.notNull())
        .addColumn("score", "double precision")
        .addColumn("reason", "text")
        .addColumn("measurable_share", "double precision", (c) => c.notNull())
        .addColumn("components", "text", (c) => c.notNull())
        .addColumn("tvl_usd", "double precision", (c) => c.notNull())
        .addColumn("body", "text", (c) => c.notNull())
        .addColumn("seal", "text", (c) => c.notNull())
        .addColumn("leaf_index", "bigint", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("risk_rows_pk", ["season_id", "as_of", "vault_id"])
        .addCheckConstraint("risk_rows_score_or_reason", sql`(score IS NULL) = (reason IS NOT NULL)`)
        .execute();
      // The same row can recur hour after hour: its seal joins the log once, so not unique here.
      await db.schema.createIndex("risk_rows_by_seal").on(RISK_ROWS_TABLE).columns(["seal"]).execute();
      await createRefuseFunction(db, dialect); // idempotent; keeps this migration self-contained
      for (const statement of appendOnlyStatements(dialect, RISK_ROWS_TABLE)) await statement.execute(db);
    },
  };
}
