import type { Kysely, Migration } from "kysely";
import type { DialectName } from "../dialect";
import { SCORE_STATES_TABLE } from "../schema";
import { appendOnlyStatements, createRefuseFunction } from "./append-only";

/**
 * The incremental scorer's folds (packages/scorer augur/incremental): one row per agent, season
 * and log size covered, so a restarted cycle reads each agent's state instead of rescoring its
 * season from the first snapshot. Append-only; `last_leaf_seal` (the seal of leaf log_size − 1)
 * tells whether the log behind a row is still the store's, `state_seal` whether the JSON is intact.
 */
export function scoreStates(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable(SCORE_STATES_TABLE)
        .addColumn("agent_id", "text", (c) => c.notNull())
        .addColumn("season_id", "text", (c) => c.notNull())
        .addColumn("log_size", "bigint", (c) => c.notNull())
        .addColumn("last_leaf_seal", "text", (c) => c.notNull())
        .addColumn("consumed", "text", (c) => c.notNull())
        .addColumn("state", "text", (c) => c.notNull())
        .addColumn("state_seal", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("score_states_pk", ["season_id", "agent_id", "log_size"])
        .execute();
      await createRefuseFunction(db, dialect);
      for (const statement of appendOnlyStatements(dialect, SCORE_STATES_TABLE)) await statement.execute(db);
    },
  };
}
