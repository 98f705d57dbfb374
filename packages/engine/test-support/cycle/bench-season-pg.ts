/**
 * The cycle bench's season (`bench-season.ts`) written into a PostgreSQL store: the same rows as
 * the SQLite seeder (`benchBatchRows`; bench-season.test.ts compares them with what
 * `appendEngineRecords` writes, on PostgreSQL when TEST_DATABASE_URL is set), inserted as one
 * `INSERT … SELECT * FROM unnest($1, $2, …)` per table and batch (one parameter per column, not
 * per value), 100 agents per transaction. The store's own guards (leaf order, foreign keys) run
 * on every row.
 */
import pg from "pg";
import { openStore } from "../../src/store/open";
import { insertSeason } from "../../src/store/queries/seasons";
import { benchBatchRows, benchSeasonRow, type BenchLogTail, type BenchSeasonShape } from "./bench-season";

/** Agents per transaction: about 21,000 records at 168 h, 72,000 at 720 h. */
const AGENTS_PER_BATCH = 100;

/** One INSERT of `rows` into `table`, each column sent as one typed array. */
async function insertColumns(
  client: pg.ClientBase,
  table: string,
  columns: readonly (readonly [name: string, type: "text" | "bigint" | "integer"])[],
  rows: readonly Record<string, unknown>[],
): Promise<void> {
  if (rows.length === 0) return;
  const names = columns.map(([name]) => name).join(", ");
  const arrays = columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(", ");
  await client.query(
    `INSERT INTO ${table} (${names}) SELECT * FROM unnest(${arrays})`,
    columns.map(([name]) => rows.map((row) => row[name] ?? null)),
  );
}

/**
 * Migrates the PostgreSQL store at `url` (its default schema, or `schema`), then writes the
 * season and its agents' records; the store must hold no log yet. Returns the record count.
 * `progress` gets one line per 1,000 agents.
 */
export async function seedBenchSeasonPg(
  location: { url: string; schema?: string },
  shape: BenchSeasonShape,
  progress: (line: string) => void,
): Promise<number> {
  const store = await openStore({ kind: "postgres", ...location });
  try {
    if ((await store.log.size(store.db)) !== 0)
      throw new Error(`seedBenchSeasonPg: ${store.description} already holds a log`);
    await insertSeason(store.db, benchSeasonRow(shape));
  } finally {
    await store.close();
  }
  const client = new pg.Client({
    connectionString: location.url,
    ...(location.schema ? { options: `-c search_path="${location.schema}"` } : {}),
  });
  await client.connect();
  try {
    // A scratch store: a crash loses the seed, never anything else.
    await client.query("SET synchronous_commit = off");
    const log: BenchLogTail = { frontier: new Map(), size: 0 };
    for (let from = 0; from < shape.agents; from += AGENTS_PER_BATCH) {
      const count = Math.min(AGENTS_PER_BATCH, shape.agents - from);
      const rows = benchBatchRows(shape, from, count, log);
      await client.query("BEGIN");
      try {
        await insertColumns(
          client,
          "merkle_leaves",
          [
            ["leaf_index", "bigint"],
            ["seal", "text"],
            ["appended_at", "bigint"],
          ],
          rows.leaves,
        );
        await insertColumns(
          client,
          "merkle_nodes",
          [
            ["level", "integer"],
            ["idx", "bigint"],
            ["hash", "text"],
          ],
          rows.nodes as never,
        );
        await insertColumns(
          client,
          "records",
          [
            ["seal", "text"],
            ["kind", "text"],
            ["agent_id", "text"],
            ["season_id", "text"],
            ["body", "text"],
            ["signer", "text"],
            ["signature", "text"],
            ["cosignature", "text"],
            ["leaf_index", "bigint"],
            ["received_at", "bigint"],
          ],
          rows.records,
        );
        await insertColumns(
          client,
          "agents",
          [
            ["id", "text"],
            ["season_id", "text"],
            ["creator", "text"],
            ["style", "text"],
            ["agent_key", "text"],
            ["registration_seal", "text"],
            ["registered_at", "bigint"],
          ],
          rows.agents as never,
        );
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      }
      if ((from + count) % 1000 === 0 || from + count === shape.agents) {
        progress(`  seeded ${from + count} agents, ${log.size.toLocaleString("en")} records`);
      }
    }
    // Fresh planner statistics: the cycle's first queries would otherwise plan for empty tables.
    await client.query("ANALYZE");
    return log.size;
  } finally {
    await client.end();
  }
}
