import type { Compilable, CompiledQuery, Kysely } from "kysely";
import type { Database } from "./schema";

const SENTINEL = "\u0000augur-param:";

/**
 * A query built and compiled once per database, then run with new parameter values: on hot
 * read paths Kysely's builder and compiler cost more than SQLite itself. `build` receives
 * placeholders for the parameters and must use each exactly as a value (never in SQL text).
 */
export function preparedQuery<P extends readonly unknown[], R>(
  build: (db: Kysely<Database>, ...params: P) => Compilable<R>,
  arity: P["length"],
): (db: Kysely<Database>, ...params: P) => Promise<R[]> {
  const compiled = new WeakMap<
    Kysely<Database>,
    { query: CompiledQuery<R>; slots: Array<number | undefined> }
  >();
  return async (db, ...params) => {
    let entry = compiled.get(db);
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
      compiled.set(db, entry);
    }
    const { query, slots } = entry;
    const parameters = query.parameters.map((value, i) =>
      slots[i] === undefined ? value : params[slots[i]!],
    );
    const result = await db.executeQuery<R>({ ...query, parameters });
    return result.rows;
  };
}
