import type { Kysely, Migration } from "kysely";

/**
 * Balances carried from Transfer logs (`measure/carried.ts`): per measured season, the block the
 * carried balances are at, and each wallet's raw balances (a JSON array of decimal strings, in
 * the block row's token order). A cache of chain state, not a sealed row: rewritten in the
 * transaction that seals the hour it was carried to, so a restart continues from it; losing it
 * costs one full `balanceOf` read.
 */
export function carriedBalances(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("carried_blocks")
        .addColumn("season_id", "text", (c) => c.primaryKey())
        .addColumn("block", "bigint", (c) => c.notNull())
        .addColumn("hash", "text", (c) => c.notNull())
        .addColumn("tokens", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("carried_balances")
        .addColumn("season_id", "text", (c) => c.notNull())
        .addColumn("wallet", "text", (c) => c.notNull())
        .addColumn("balances", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("carried_balances_pk", ["season_id", "wallet"])
        .execute();
    },
  };
}
