import type { Insertable, Kysely } from "kysely";
import type { Database } from "./schema";

/**
 * Bound parameters one statement may carry on both backends: SQLite (3.32 and later, as bundled
 * by better-sqlite3) allows 32,766, PostgreSQL 65,535. A multi-row INSERT binds one parameter per
 * column per row, an IN list one per value, so a batch is as many rows as fit this budget.
 */
export const MAX_PARAMETERS = 32_766;

/** Splits `items` into runs that each bind at most `MAX_PARAMETERS` when every item binds `perItem`. */
export function parameterBatches<T>(items: readonly T[], perItem: number): T[][] {
  const size = Math.max(1, Math.floor(MAX_PARAMETERS / Math.max(1, perItem)));
  const batches: T[][] = [];
  for (let i = 0; i < items.length; i += size) batches.push(items.slice(i, i + size));
  return batches;
}

/** Inserts `rows` into `table` in as few statements as the parameter budget allows (none when empty). */
export async function insertBatched<T extends keyof Database & string>(
  db: Kysely<Database>,
  table: T,
  rows: readonly Insertable<Database[T]>[],
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!).length;
  for (const batch of parameterBatches(rows, columns)) {
    // Kysely cannot type `values` for a table chosen by a type parameter; rows are typed above.
    await db
      .insertInto(table)
      .values(batch as never)
      .execute();
  }
}
