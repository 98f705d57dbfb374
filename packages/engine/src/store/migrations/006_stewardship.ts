import type { Kysely, Migration } from "kysely";
import type { DialectName } from "../dialect";
import { STEWARDSHIP_DAYS_TABLE } from "../schema";
import { appendOnlyStatements, createRefuseFunction } from "./append-only";

/**
 * The stewardship monitor (issue 9): the project token's Transfer logs and its pools' Swap logs as
 * the chain follower saw them (rolled back on reorg, like call_events, so not append-only), and
 * the sealed daily record, one per UTC day: `body` is the sealed text (its sha256 is `seal`, a
 * leaf of the log at `leaf_index`), never edited — append-only in the database itself.
 * `through_block` is the confirmed block the day was measured up to: a reorg at or below it is
 * deeper than the confirmations and stops the follower.
 */
export function stewardship(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("stewardship_transfers")
        .addColumn("chain_id", "bigint", (c) => c.notNull())
        .addColumn("token", "text", (c) => c.notNull())
        .addColumn("from_address", "text", (c) => c.notNull())
        .addColumn("to_address", "text", (c) => c.notNull())
        .addColumn("amount", "text", (c) => c.notNull())
        .addColumn("block_number", "bigint", (c) => c.notNull())
        .addColumn("block_hash", "text", (c) => c.notNull())
        .addColumn("block_timestamp", "bigint", (c) => c.notNull())
        .addColumn("tx_hash", "text", (c) => c.notNull())
        .addColumn("log_index", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("stewardship_transfers_pk", ["chain_id", "tx_hash", "log_index"])
        .execute();
      await db.schema
        .createIndex("stewardship_transfers_by_block")
        .on("stewardship_transfers")
        .columns(["chain_id", "token", "block_number"])
        .execute();

      await db.schema
        .createTable("stewardship_swaps")
        .addColumn("chain_id", "bigint", (c) => c.notNull())
        .addColumn("pool", "text", (c) => c.notNull())
        .addColumn("sender", "text", (c) => c.notNull())
        .addColumn("recipient", "text", (c) => c.notNull())
        .addColumn("amount0", "text", (c) => c.notNull())
        .addColumn("amount1", "text", (c) => c.notNull())
        .addColumn("block_number", "bigint", (c) => c.notNull())
        .addColumn("block_hash", "text", (c) => c.notNull())
        .addColumn("block_timestamp", "bigint", (c) => c.notNull())
        .addColumn("tx_hash", "text", (c) => c.notNull())
        .addColumn("log_index", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("stewardship_swaps_pk", ["chain_id", "tx_hash", "log_index"])
        .execute();
      await db.schema
        .createIndex("stewardship_swaps_by_block")
        .on("stewardship_swaps")
        .columns(["chain_id", "pool", "block_number"])
        .execute();

      await db.schema
        .createTable(STEWARDSHIP_DAYS_TABLE)
        .addColumn("day", "text", (c) => c.primaryKey())
        .addColumn("as_of", "bigint", (c) => c.notNull().unique())
        .addColumn("chain_id", "bigint", (c) => c.notNull())
        .addColumn("token", "text", (c) => c.notNull())
        .addColumn("state", "text", (c) => c.notNull())
        .addColumn("through_block", "bigint", (c) => c.notNull())
        .addColumn("body", "text", (c) => c.notNull())
        .addColumn("seal", "text", (c) => c.notNull().unique())
        .addColumn("leaf_index", "bigint", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
      await createRefuseFunction(db, dialect); // idempotent; keeps this migration self-contained
      for (const statement of appendOnlyStatements(dialect, STEWARDSHIP_DAYS_TABLE)) {
        await statement.execute(db);
      }
    },
  };
}
