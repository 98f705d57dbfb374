import { sql, type Kysely, type Migration } from "kysely";

/**
 * The keeper's journal gains what a restart needs to finish an attempt without guessing (the
 * sender, the raw signed transaction, its gas limit, the transaction it replaces, the block it was
 * mined in), and the chain indexer gets its tables: a cursor per followed contract, the hashes of
 * the blocks it has read (to notice a reorg) and the Anchored events seen so far. The indexer's
 * tables are not append-only: a reorged block's events are deleted, by design.
 */
export function keeperIndexer(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // SQLite adds one column per ALTER TABLE statement.
      for (const [name, type] of [
        ["sender", "text"],
        ["raw_tx", "text"],
        ["gas_limit", "text"],
        ["replaces", "text"],
        ["block_number", "bigint"],
      ] as const) {
        await db.schema.alterTable("keeper_attempts").addColumn(name, type).execute();
      }
      // A nonce is reserved exactly once per sender and chain: the first signed transaction at a
      // nonce. Replacements at the same nonce name the transaction they replace.
      await sql`CREATE UNIQUE INDEX keeper_attempts_nonce_reserved
        ON keeper_attempts (chain_id, sender, nonce)
        WHERE status = 'signed' AND replaces IS NULL`.execute(db);
      await db.schema
        .createIndex("keeper_attempts_by_nonce")
        .on("keeper_attempts")
        .columns(["chain_id", "sender", "nonce"])
        .execute();

      await db.schema
        .createTable("indexer_cursors")
        .addColumn("chain_id", "bigint", (c) => c.notNull())
        .addColumn("address", "text", (c) => c.notNull())
        .addColumn("last_block", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("indexer_cursors_pk", ["chain_id", "address"])
        .execute();

      await db.schema
        .createTable("indexer_blocks")
        .addColumn("chain_id", "bigint", (c) => c.notNull())
        .addColumn("address", "text", (c) => c.notNull())
        .addColumn("block_number", "bigint", (c) => c.notNull())
        .addColumn("block_hash", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("indexer_blocks_pk", ["chain_id", "address", "block_number"])
        .execute();

      await db.schema
        .createTable("anchor_events")
        .addColumn("chain_id", "bigint", (c) => c.notNull())
        .addColumn("registry", "text", (c) => c.notNull())
        .addColumn("anchor_index", "bigint", (c) => c.notNull())
        .addColumn("tree_size", "bigint", (c) => c.notNull())
        .addColumn("root", "text", (c) => c.notNull())
        .addColumn("block_number", "bigint", (c) => c.notNull())
        .addColumn("block_hash", "text", (c) => c.notNull())
        .addColumn("block_timestamp", "bigint", (c) => c.notNull())
        .addColumn("tx_hash", "text", (c) => c.notNull())
        .addColumn("log_index", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("anchor_events_pk", ["chain_id", "registry", "anchor_index"])
        .execute();
      await db.schema
        .createIndex("anchor_events_by_block")
        .on("anchor_events")
        .columns(["chain_id", "registry", "block_number"])
        .execute();
    },
  };
}
