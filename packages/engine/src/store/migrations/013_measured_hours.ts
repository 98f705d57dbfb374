import type { Kysely, Migration } from "kysely";

/**
 * The hour boundaries the measure step has finished, one row per (season, hour), written in the
 * same transaction as that hour's snapshots and trades. A progress mark, not a sealed row (the
 * records themselves are in the log): the step resumes after the newest one, so hours the cycle
 * missed while the engine was down are measured in order, and a rerun measures nothing twice.
 */
export function measuredHours(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("measured_hours")
        .addColumn("season_id", "text", (c) => c.notNull())
        .addColumn("at", "bigint", (c) => c.notNull())
        .addColumn("measured_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("measured_hours_pk", ["season_id", "at"])
        .execute();
    },
  };
}
