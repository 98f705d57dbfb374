import type { Kysely, Migration } from "kysely";
import type { DialectName } from "../dialect";
import { AGENT_RETIREMENTS_TABLE, RISK_READINGS_TABLE } from "../schema";
import { appendOnlyStatements, createRefuseFunction } from "./append-only";
import { sqliteGuards } from "./012_insert_guards";

/**
 * Two sealed tables, append-only like the rest (their triggers and, on SQLite, insert guards are
 * made here, the tables being newer than 012):
 * - `risk_readings`: each risk component of each vault as published on its own page (seed 003:
 *   "each already published on its own page here"), one per (season, as-of, vault, component).
 *   `body` is the sealed text (reading, reason, inputs); an unchanged reading keeps its leaf.
 * - `agent_retirements`: an agent's signed retirement, one per (season, agent). `body` is the
 *   sealed record, `signature` the agent key's EIP-712 signature of it.
 */
export function readingsRetirements(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable(RISK_READINGS_TABLE)
        .addColumn("season_id", "text", (c) => c.notNull().references("seasons.id"))
        .addColumn("as_of", "bigint", (c) => c.notNull())
        .addColumn("vault_id", "text", (c) => c.notNull())
        .addColumn("component", "text", (c) => c.notNull())
        .addColumn("reading", "double precision")
        .addColumn("reason", "text")
        .addColumn("body", "text", (c) => c.notNull())
        .addColumn("seal", "text", (c) => c.notNull())
        .addColumn("leaf_index", "bigint", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("risk_readings_pk", ["season_id", "as_of", "vault_id", "component"])
        .execute();
      await db.schema
        .createIndex("risk_readings_by_seal")
        .on(RISK_READINGS_TABLE)
        .columns(["seal"])
        .execute();
      await db.schema
        .createTable(AGENT_RETIREMENTS_TABLE)
        .addColumn("season_id", "text", (c) => c.notNull().references("seasons.id"))
        .addColumn("agent_id", "text", (c) => c.notNull())
        .addColumn("retired_at", "bigint", (c) => c.notNull())
        .addColumn("body", "text", (c) => c.notNull())
        .addColumn("seal", "text", (c) => c.notNull().unique())
        .addColumn("signer", "text", (c) => c.notNull())
        .addColumn("signature", "text", (c) => c.notNull())
        .addColumn("leaf_index", "bigint", (c) => c.notNull())
        .addColumn("received_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("agent_retirements_pk", ["season_id", "agent_id"])
        .execute();
      await createRefuseFunction(db, dialect); // idempotent; keeps this migration self-contained
      for (const table of [RISK_READINGS_TABLE, AGENT_RETIREMENTS_TABLE])
        for (const statement of appendOnlyStatements(dialect, table)) await statement.execute(db);
      if (dialect === "sqlite") await sqliteGuards(db, [RISK_READINGS_TABLE, AGENT_RETIREMENTS_TABLE]);
    },
  };
}
