import type { Kysely, Migration } from "kysely";

/**
 * The chain indexer's CallLedger events as seen (Revealed, Settled, Expired), rolled back on
 * reorg like anchor_events. `record_seal` is set once a confirmed resolution has been sealed as a
 * `call` record: from then on a reorg of that block is too deep to roll back.
 */
export function callEvents(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("call_events")
        .addColumn("chain_id", "bigint", (c) => c.notNull())
        .addColumn("ledger", "text", (c) => c.notNull())
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("call_id", "text", (c) => c.notNull())
        .addColumn("agent", "text", (c) => c.notNull())
        .addColumn("payload", "text", (c) => c.notNull())
        .addColumn("block_number", "bigint", (c) => c.notNull())
        .addColumn("block_hash", "text", (c) => c.notNull())
        .addColumn("block_timestamp", "bigint", (c) => c.notNull())
        .addColumn("tx_hash", "text", (c) => c.notNull())
        .addColumn("log_index", "integer", (c) => c.notNull())
        .addColumn("record_seal", "text")
        .addPrimaryKeyConstraint("call_events_pk", ["chain_id", "tx_hash", "log_index"])
        .execute();
      await db.schema
        .createIndex("call_events_by_call")
        .on("call_events")
        .columns(["chain_id", "ledger", "call_id", "kind"])
        .execute();
      await db.schema
        .createIndex("call_events_by_block")
        .on("call_events")
        .columns(["chain_id", "ledger", "block_number"])
        .execute();
    },
  };
}
