import { sql, type Kysely, type Migration } from "kysely";
import type { DialectName } from "../dialect";
import { RISK_HOURS_TABLE, RISK_READINGS_TABLE, RISK_ROWS_TABLE } from "../schema";
import { appendOnlyStatements, createRefuseFunction } from "./append-only";
import { sqliteGuards } from "./012_insert_guards";

/**
 * The risk step stores a reading or row only when it changed (docs/risk-score.md, "Stored on
 * change"), so the hours it ran are kept apart: `risk_hours`, one row per (season, as-of) the
 * step sealed, with how many vaults it read and `all_stored` = 1 when every vault's readings and row
 * were stored that hour (the vault set changed, or the first hour). The reading of an hour is
 * the latest stored at or before it, for the vaults of the last full hour at or before it; the
 * two indexes find that latest per vault. Every hour stored before this migration was full.
 */
export function riskHours(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable(RISK_HOURS_TABLE)
        .addColumn("season_id", "text", (c) => c.notNull().references("seasons.id"))
        .addColumn("as_of", "bigint", (c) => c.notNull())
        .addColumn("vaults", "integer", (c) => c.notNull())
        .addColumn("all_stored", "integer", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("risk_hours_pk", ["season_id", "as_of"])
        .execute();
      await sql`INSERT INTO ${sql.table(RISK_HOURS_TABLE)} (season_id, as_of, vaults, all_stored, created_at)
        SELECT season_id, as_of, COUNT(*), 1, MAX(created_at) FROM ${sql.table(RISK_ROWS_TABLE)}
        GROUP BY season_id, as_of`.execute(db);
      await db.schema
        .createIndex("risk_rows_by_vault")
        .on(RISK_ROWS_TABLE)
        .columns(["season_id", "vault_id", "as_of"])
        .execute();
      await db.schema
        .createIndex("risk_readings_by_vault")
        .on(RISK_READINGS_TABLE)
        .columns(["season_id", "vault_id", "component", "as_of"])
        .execute();
      await createRefuseFunction(db, dialect);
      for (const statement of appendOnlyStatements(dialect, RISK_HOURS_TABLE)) await statement.execute(db);
      if (dialect === "sqlite") await sqliteGuards(db, [RISK_HOURS_TABLE]);
    },
  };
}
