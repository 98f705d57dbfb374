import type { Kysely, Migration } from "kysely";
import type { DialectName } from "../dialect";
import { RISK_CAPITAL_TABLE } from "../schema";
import { appendOnlyStatements, createRefuseFunction } from "./append-only";
import { sqliteGuards } from "./012_insert_guards";

/**
 * A vault's capital (NAV, outside the row's seal) stored on its own when it moved but the row's
 * seal did not, so an hour that moved only capital writes a small row here instead of the sealed
 * row again (docs/risk-score.md, "Stored on change"). The capital served at an hour is the
 * vault's latest here or in risk_rows at or before it; the key finds that latest per vault.
 */
export function riskCapital(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable(RISK_CAPITAL_TABLE)
        .addColumn("season_id", "text", (c) => c.notNull().references("seasons.id"))
        .addColumn("vault_id", "text", (c) => c.notNull())
        .addColumn("as_of", "bigint", (c) => c.notNull())
        .addColumn("tvl_usd", "double precision", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("risk_capital_pk", ["season_id", "vault_id", "as_of"])
        .execute();
      await createRefuseFunction(db, dialect);
      for (const statement of appendOnlyStatements(dialect, RISK_CAPITAL_TABLE)) await statement.execute(db);
      if (dialect === "sqlite") await sqliteGuards(db, [RISK_CAPITAL_TABLE]);
    },
  };
}
