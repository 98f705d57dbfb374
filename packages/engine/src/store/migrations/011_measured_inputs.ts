import type { Kysely, Migration } from "kysely";

/**
 * Measured inputs (issue #16): a season says whether its snapshots and trades are declared by
 * the agents (every season before this migration) or measured by the engine from the chain; an
 * agent's registration may bind its wallet, proven by the wallet's own signature (`eoa`) or by
 * EIP-1271 (`eip1271`). One wallet holds the book of one agent per season.
 */
export function measuredInputs(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable("seasons")
        .addColumn("inputs", "text", (c) => c.notNull().defaultTo("declared"))
        .execute();
      await db.schema.alterTable("agents").addColumn("wallet", "text").execute();
      await db.schema.alterTable("agents").addColumn("wallet_proof", "text").execute();
      await db.schema.alterTable("agents").addColumn("wallet_signature", "text").execute();
      await db.schema
        .createIndex("agents_by_wallet")
        .unique()
        .on("agents")
        .columns(["season_id", "wallet"])
        .execute();
    },
  };
}
