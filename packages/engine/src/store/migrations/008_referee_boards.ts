import type { Kysely, Migration } from "kysely";
import type { DialectName } from "../dialect";
import { REFEREE_BOARDS_TABLE } from "../schema";
import { appendOnlyStatements, createRefuseFunction } from "./append-only";

/**
 * The referee's sealed boards (referee/v1 leaderboard of a season), computed by the hourly cycle
 * from anchored closes and calls, at most one per (season, hour). `body` is the sealed text (sha256
 * of it is `seal`, a leaf of the log at `leaf_index`); `log_size` and `input_seal` repeat it so the
 * API can rebuild the exact input without parsing the body. Every body names its hour, so every
 * seal is distinct (unique). Append-only like hourly closes: its triggers are made here.
 */
export function refereeBoards(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable(REFEREE_BOARDS_TABLE)
        .addColumn("season_id", "text", (c) => c.notNull().references("seasons.id"))
        .addColumn("as_of", "bigint", (c) => c.notNull())
        .addColumn("log_size", "bigint", (c) => c.notNull())
        .addColumn("input_seal", "text", (c) => c.notNull())
        .addColumn("body", "text", (c) => c.notNull())
        .addColumn("seal", "text", (c) => c.notNull().unique())
        .addColumn("leaf_index", "bigint", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("referee_boards_pk", ["season_id", "as_of"])
        .execute();
      await createRefuseFunction(db, dialect); // idempotent; keeps this migration self-contained
      for (const statement of appendOnlyStatements(dialect, REFEREE_BOARDS_TABLE))
        await statement.execute(db);
    },
  };
}
