import type { CompiledQuery, Insertable, Kysely } from "kysely";
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

/**
 * Compiled multi-row INSERTs by SQL dialect (its adapter), then by table, columns and row count
 * (null: a shape whose values Kysely does not bind one for one). Building and compiling a
 * 2,000-row INSERT through Kysely (a frozen node per value) costs about as much as SQLite's own
 * insert; the cycle writes the same shapes every hour, so each is compiled once and run with new
 * parameters (and SQLite's statement cache reuses the prepared statement).
 */
const compiledInserts = new WeakMap<object, Map<string, CompiledQuery | null>>();
const COMPILED_INSERTS_LIMIT = 64;

/** A value Kysely binds as one parameter as it is (no expression, list or default). */
function isPlainValue(value: unknown): boolean {
  return (
    value === null ||
    typeof value === "string" ||
    typeof value === "number" ||
    typeof value === "bigint" ||
    typeof value === "boolean" ||
    value instanceof Uint8Array
  );
}

/**
 * The rows' values, row after row, each in `columns` order; undefined unless every row has
 * exactly those columns, each holding a plain value.
 */
function flatValues(rows: readonly object[], columns: readonly string[]): unknown[] | undefined {
  const values = new Array<unknown>(rows.length * columns.length);
  let k = 0;
  for (const row of rows) {
    if (Object.keys(row).length !== columns.length) return undefined;
    for (const column of columns) {
      const value = (row as Record<string, unknown>)[column];
      if (!isPlainValue(value)) return undefined;
      values[k++] = value;
    }
  }
  return values;
}

/** Inserts `rows` into `table` in as few statements as the parameter budget allows (none when empty). */
export async function insertBatched<T extends keyof Database & string>(
  db: Kysely<Database>,
  table: T,
  rows: readonly Insertable<Database[T]>[],
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  const adapter = db.getExecutor().adapter;
  let cache = compiledInserts.get(adapter);
  if (!cache) compiledInserts.set(adapter, (cache = new Map()));
  for (const batch of parameterBatches(rows, columns.length)) {
    const values = flatValues(batch, columns);
    const key = `${table}\u0000${columns.join("\u0000")}\u0000${batch.length}`;
    const known = values && cache.get(key);
    if (known) {
      await db.executeQuery({ ...known, parameters: values });
      continue;
    }
    // Kysely cannot type `values` for a table chosen by a type parameter; rows are typed above.
    const query = db
      .insertInto(table)
      .values(batch as never)
      .compile();
    if (values && known === undefined) {
      // Kept only if Kysely bound exactly these values in this order: then only the values differ next time.
      const same =
        query.parameters.length === values.length && query.parameters.every((p, i) => p === values[i]);
      if (cache.size >= COMPILED_INSERTS_LIMIT) cache.delete(cache.keys().next().value!);
      cache.set(key, same ? query : null);
    }
    await db.executeQuery(query);
  }
}
