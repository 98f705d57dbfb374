import type { Kysely, Migration } from "kysely";

/**
 * The keeper's journal serves every transaction its account sends, not only anchor posts: the
 * settler's `settle` / `expire` calls share the account's one open nonce. `action` says what a row's
 * transaction does (null on older rows: `post`), `call_id` which call it resolves, and a mined or
 * reverted row keeps the receipt's `gas_used` so the spend can be added up per action. The
 * `registry` column holds the transaction's target contract (the registry or the ledger).
 */
export function settler(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // SQLite adds one column per ALTER TABLE statement.
      for (const name of ["action", "call_id", "gas_used"] as const) {
        await db.schema.alterTable("keeper_attempts").addColumn(name, "text").execute();
      }
    },
  };
}
