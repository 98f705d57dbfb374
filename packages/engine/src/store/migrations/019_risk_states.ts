import type { Kysely, Migration } from "kysely";
import type { DialectName } from "../dialect";
import { RISK_STATES_TABLE } from "../schema";
import { appendOnlyStatements, createRefuseFunction } from "./append-only";

/**
 * The risk step's folds (packages/scorer risk/fold.ts): one row per agent, season and log size
 * covered, so a restarted cycle reads each agent's risk state instead of deriving it from the
 * whole season. Append-only, the columns of score_states (migration 016) and their meaning.
 */
export function riskStates(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable(RISK_STATES_TABLE)
        .addColumn("agent_id", "text", (c) => c.notNull())
        .addColumn("season_id", "text", (c) => c.notNull())
        .addColumn("log_size", "bigint", (c) => c.notNull())
        .addColumn("last_leaf_seal", "text", (c) => c.notNull())
        .addColumn("consumed", "text", (c) => c.notNull())
        .addColumn("state", "text", (c) => c.notNull())
        .addColumn("state_seal", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("risk_states_pk", ["season_id", "agent_id", "log_size"])
        .execute();
      await createRefuseFunction(db, dialect);
      for (const statement of appendOnlyStatements(dialect, RISK_STATES_TABLE)) await statement.execute(db);
    },
  };
}
