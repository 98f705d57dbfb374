import type { Database as SqliteDatabase, Statement } from "better-sqlite3";
import type { SqliteDatabase as KyselySqliteDatabase } from "kysely";

/**
 * better-sqlite3 behind Kysely, with prepared statements reused: Kysely prepares every query it
 * runs, and on hot read paths preparing costs as much as executing. Queries run one at a time
 * (Kysely's SQLite driver holds one connection behind a mutex), so reuse is safe. Bounded: the
 * oldest statement is dropped past `capacity` (IN-lists make some SQL texts one-off).
 */
export function withStatementCache(database: SqliteDatabase, capacity = 256): KyselySqliteDatabase {
  const cache = new Map<string, Statement>();
  return {
    close: () => {
      cache.clear();
      database.close();
    },
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (statement) {
        cache.delete(sql);
      } else {
        statement = database.prepare(sql);
        if (cache.size >= capacity) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, statement);
      return statement as unknown as ReturnType<KyselySqliteDatabase["prepare"]>;
    },
  };
}
