import type { Kysely, Migration } from "kysely";
import type { DialectName } from "../dialect";
import { HOURLY_CLOSES_TABLE } from "../schema";
import { appendOnlyStatements, createRefuseFunction } from "./append-only";

/**
 * The referee's hourly closes, one per (asset, hour), read from the PriceOracle by the cycle.
 * `body` is the sealed text (sha256 of it is `seal`, a leaf of the log at `leaf_index`); the other
 * columns repeat it for querying. Every body names its hour, so every seal is distinct (unique).
 * Append-only like risk rows: its triggers are made here, not by 001 (the table is newer).
 */
export function hourlyCloses(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable(HOURLY_CLOSES_TABLE)
        .addColumn("asset", "text", (c) => c.notNull())
        .addColumn("at", "bigint", (c) => c.notNull())
        .addColumn("chain_id", "bigint", (c) => c.notNull())
        .addColumn("oracle", "text", (c) => c.notNull())
        .addColumn("price18", "text", (c) => c.notNull())
        .addColumn("close", "double precision", (c) => c.notNull())
        .addColumn("body", "text", (c) => c.notNull())
        .addColumn("seal", "text", (c) => c.notNull().unique())
        .addColumn("leaf_index", "bigint", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("hourly_closes_pk", ["asset", "at"])
        .execute();
      // The epoch's input reads a time range over every asset.
      await db.schema.createIndex("hourly_closes_by_hour").on(HOURLY_CLOSES_TABLE).columns(["at"]).execute();
      await createRefuseFunction(db, dialect); // idempotent; keeps this migration self-contained
      for (const statement of appendOnlyStatements(dialect, HOURLY_CLOSES_TABLE)) await statement.execute(db);
    },
  };
}
