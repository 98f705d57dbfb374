import type { Compilable, CompiledQuery, DialectAdapter, Insertable, Kysely } from "kysely";
import type { Database } from "./schema";

const SENTINEL = "\u0000augur-param:";

/**
 * A query built and compiled once per database, then run with new parameter values: on hot
 * paths Kysely's builder and compiler cost more than SQLite itself. `build` receives
 * placeholders for the parameters and must use each exactly as a value (never in SQL text).
 * Compiled once per dialect adapter, which a database's transactions share with it (a
 * transaction is a new `Kysely` each time: keyed by it, a query would compile per transaction).
 */
export function preparedQuery<P extends readonly unknown[], R>(
  build: (db: Kysely<Database>, ...params: P) => Compilable<R>,
  arity: P["length"],
): (db: Kysely<Database>, ...params: P) => Promise<R[]> {
  const compiled = new WeakMap<
    DialectAdapter,
    { query: CompiledQuery<R>; slots: Array<number | undefined> }
  >();
  return async (db, ...params) => {
    const adapter = db.getExecutor().adapter;
    let entry = compiled.get(adapter);
    if (!entry) {
      const placeholders = Array.from({ length: arity }, (_, i) => `${SENTINEL}${i}`) as unknown as P;
      const query = build(db, ...placeholders).compile();
      const slots = query.parameters.map((value) =>
        typeof value === "string" && value.startsWith(SENTINEL)
          ? Number(value.slice(SENTINEL.length))
          : undefined,
      );
      if (new Set(slots.filter((s) => s !== undefined)).size !== arity) {
        throw new Error("preparedQuery: every parameter must appear as a value in the query");
      }
      entry = { query, slots };
      compiled.set(adapter, entry);
    }
    const { query, slots } = entry;
    const parameters = query.parameters.map((value, i) =>
      slots[i] === undefined ? value : params[slots[i]!],
    );
    const result = await db.executeQuery<R>({ ...query, parameters });
    return result.rows;
  };
}

/**
 * `preparedQuery` for a one-row INSERT of `columns` into `table`: the row's values bound in
 * column order (every column given, so one compiled text serves every row).
 */
export function preparedInsert<
  T extends keyof Database & string,
  C extends keyof Insertable<Database[T]> & string,
>(
  table: T,
  columns: readonly C[],
): (db: Kysely<Database>, row: Pick<Insertable<Database[T]>, C>) => Promise<unknown[]> {
  const insert = preparedQuery(
    (db, ...values: unknown[]) =>
      // Kysely cannot type `values` for a table chosen by a type parameter; the row is typed above.
      db.insertInto(table).values(Object.fromEntries(columns.map((c, i) => [c, values[i]])) as never),
    columns.length,
  );
  return (db, row) => insert(db, ...columns.map((c) => row[c]));
}
