import type { Kysely } from "kysely";
import type { Database } from "../schema";

/** Every carried wallet's raw balances (in `tokens` order) at one block (`measure/carried.ts`). */
export interface CarriedState {
  readonly block: number;
  readonly hash: string;
  readonly tokens: readonly string[];
  readonly balances: ReadonlyMap<string, readonly bigint[]>;
}

/** Rows per statement: 3 parameters a row stays far under SQLite's 32,766 bound variables. */
const ROWS = 500;

/** The season's carried balances, or undefined before its first measured hour. */
export async function loadCarried(db: Kysely<Database>, seasonId: string): Promise<CarriedState | undefined> {
  const head = await db
    .selectFrom("carried_blocks")
    .selectAll()
    .where("season_id", "=", seasonId)
    .executeTakeFirst();
  if (!head) return undefined;
  const rows = await db
    .selectFrom("carried_balances")
    .select(["wallet", "balances"])
    .where("season_id", "=", seasonId)
    .execute();
  return {
    block: Number(head.block),
    hash: head.hash,
    tokens: JSON.parse(head.tokens) as string[],
    balances: new Map(rows.map((r) => [r.wallet, (JSON.parse(r.balances) as string[]).map(BigInt)])),
  };
}

/**
 * Moves the season's carried balances from `prior` (what `loadCarried` answered) to `next`:
 * writes the wallets whose balances changed or are new, removes the ones `next` no longer
 * carries (their balances would go stale), and the block. Run in the transaction that seals the hour.
 */
export async function saveCarried(
  db: Kysely<Database>,
  seasonId: string,
  prior: CarriedState | undefined,
  next: CarriedState,
): Promise<void> {
  const sameTokens = prior?.tokens.join() === next.tokens.join();
  const changed = [...next.balances].filter(([wallet, row]) => {
    const before = sameTokens ? prior?.balances.get(wallet) : undefined;
    return !before || before.some((b, i) => b !== row[i]);
  });
  const gone = [...(prior?.balances.keys() ?? [])].filter((w) => !next.balances.has(w));
  for (let i = 0; i < gone.length; i += ROWS)
    await db
      .deleteFrom("carried_balances")
      .where("season_id", "=", seasonId)
      .where("wallet", "in", gone.slice(i, i + ROWS))
      .execute();
  for (let i = 0; i < changed.length; i += ROWS)
    await db
      .insertInto("carried_balances")
      .values(
        changed.slice(i, i + ROWS).map(([wallet, row]) => ({
          season_id: seasonId,
          wallet,
          balances: JSON.stringify(row.map(String)),
        })),
      )
      .onConflict((oc) =>
        oc.columns(["season_id", "wallet"]).doUpdateSet((eb) => ({ balances: eb.ref("excluded.balances") })),
      )
      .execute();
  const head = { block: next.block, hash: next.hash, tokens: JSON.stringify(next.tokens) };
  await db
    .insertInto("carried_blocks")
    .values({ season_id: seasonId, ...head })
    .onConflict((oc) => oc.column("season_id").doUpdateSet(head))
    .execute();
}
