import { randomBytes } from "node:crypto";
import pg from "pg";
import { openStore, type Store } from "../../src/store/open";

/**
 * The backends a store test runs against: SQLite (in memory) always, and PostgreSQL when
 * `TEST_DATABASE_URL` is set — each PostgreSQL store in a fresh schema, dropped on close.
 */
export interface TestBackend {
  readonly name: "sqlite" | "postgres";
  open(): Promise<Store>;
}

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

export function testBackends(): TestBackend[] {
  const backends: TestBackend[] = [
    { name: "sqlite", open: () => openStore({ kind: "sqlite", file: ":memory:" }) },
  ];
  const url = TEST_DATABASE_URL;
  if (url) backends.push({ name: "postgres", open: () => openPostgresTestStore(url) });
  return backends;
}

async function openPostgresTestStore(url: string): Promise<Store> {
  const schema = `augur_test_${randomBytes(6).toString("hex")}`;
  const store = await openStore({ kind: "postgres", url, schema });
  return {
    ...store,
    async close() {
      await store.close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA "${schema}" CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}
