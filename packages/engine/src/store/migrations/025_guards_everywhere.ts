import type { Kysely, Migration } from "kysely";
import type { DialectName } from "../dialect";
import { ERASURES_TABLE, FOLD_TABLES } from "../schema";
import { sqliteGuards } from "./012_insert_guards";

/**
 * SQLite: the existing-key guards of migration 012 on the append-only tables that came after it
 * without one, so `REPLACE` cannot swap their rows either: the erasure log refuses the statement;
 * a fold already stored is kept and the new row skipped (the cycle inserts
 * folds with `ON CONFLICT DO NOTHING`, which a refusal would turn into an error). PostgreSQL has
 * no `REPLACE` and its upsert fires the UPDATE trigger: nothing to add there.
 */
export function guardsEverywhere(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== "sqlite") return;
      await sqliteGuards(db, [ERASURES_TABLE]);
      await sqliteGuards(db, FOLD_TABLES, "skip");
    },
  };
}
