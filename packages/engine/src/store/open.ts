import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import SqliteDatabase from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import type { DialectName } from "./dialect";
import { MigrationError, StoreOpenError } from "./errors";
import { describeLocation, type StoreLocation } from "./location";
import { merkleLog, type MerkleLogStore } from "./merkle/log-store";
import { migrationProvider } from "./migrations";
import type { Database } from "./schema";
import { withStatementCache } from "./sqlite-statements";

/** An open store: one Kysely instance over either backend. */
export interface Store {
  readonly db: Kysely<Database>;
  readonly dialect: DialectName;
  /** The location, safe to print. */
  readonly description: string;
  /**
   * Where it was opened (a record writer thread opens its own connection there). Holds the
   * PostgreSQL URL as given, password included: never print it, print `description`.
   */
  readonly location?: StoreLocation;
  /** The PostgreSQL schema the store lives in, when not the default. */
  readonly schema?: string;
  /** The store's Merkle log (every seal, in order); its methods take `db` or a transaction. */
  readonly log: MerkleLogStore;
  close(): Promise<void>;
}

const INT8_OID = 20;

/** int8 columns come back as numbers (every id, index and time here is far below 2^53). */
function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`int8 value ${text} exceeds 2^53`);
  return value;
}

const pgTypes = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === INT8_OID && format !== "binary") return parseInt8;
    return pg.types.getTypeParser(oid, format ?? "text");
  },
} as pg.CustomTypesConfig;

function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new StoreOpenError(name, "schema names are [a-z0-9_]");
  return `"${name}"`;
}

async function openPostgres(
  location: Extract<StoreLocation, { kind: "postgres" }>,
): Promise<Kysely<Database>> {
  if (location.schema) {
    const client = new pg.Client({ connectionString: location.url });
    await client.connect();
    try {
      // Asked first: a serving role (docs/engine.md, "PostgreSQL roles") may not create schemas.
      const exists = await client.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [location.schema]);
      if (exists.rowCount === 0)
        await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(location.schema)}`);
    } finally {
      await client.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: location.url,
    types: pgTypes,
    max: 10,
    ...(location.schema ? { options: `-c search_path=${quoteIdent(location.schema)}` } : {}),
  });
  // Fail now, with the location in the message, rather than on the first query.
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end();
    throw error;
  }
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

function openSqlite(file: string, mustExist: boolean): Kysely<Database> {
  if (file !== ":memory:") {
    if (mustExist && !existsSync(file)) throw new Error("no store there (nothing was created)");
    mkdirSync(dirname(file), { recursive: true });
  }
  const database = new SqliteDatabase(file);
  database.pragma("journal_mode = WAL");
  database.pragma("foreign_keys = ON");
  database.pragma("busy_timeout = 5000");
  database.pragma("synchronous = NORMAL");
  // Reads are random index probes over a large file: keep hot pages in memory (64 MiB) and map
  // the file (256 MiB) so a page hit costs no system call.
  database.pragma("cache_size = -65536");
  database.pragma("mmap_size = 268435456");
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
}

/**
 * Opens (creating an SQLite file and its directory if needed, unless `mustExist`: read-only
 * commands never create a store) and migrates to the latest schema.
 */
export async function openStore(
  location: StoreLocation,
  options: { migrate?: boolean; mustExist?: boolean } = {},
): Promise<Store> {
  const description = describeLocation(location);
  let db: Kysely<Database>;
  try {
    db =
      location.kind === "postgres"
        ? await openPostgres(location)
        : openSqlite(location.file, options.mustExist ?? false);
  } catch (error) {
    throw new StoreOpenError(description, error instanceof Error ? error.message : String(error));
  }
  const store: Store = {
    db,
    dialect: location.kind,
    description,
    location,
    log: merkleLog,
    ...(location.kind === "postgres" && location.schema ? { schema: location.schema } : {}),
    close: () => db.destroy(),
  };
  if (options.migrate ?? true) {
    try {
      await migrateToLatest(store);
    } catch (error) {
      await db.destroy();
      throw error;
    }
  }
  return store;
}

/**
 * Whether a second connection to this store sees the same data: not for an in-memory SQLite
 * database, which lives and dies with its one connection.
 */
export function isShareable(location: StoreLocation | undefined): location is StoreLocation {
  return location !== undefined && (location.kind === "postgres" || location.file !== ":memory:");
}

/** Applies every pending migration in order; returns the names applied now (empty if none). */
export async function migrateToLatest(store: Pick<Store, "db" | "dialect" | "schema">): Promise<string[]> {
  // Kysely looks for its own tables by name across schemas unless told which one: with another
  // store's schema in the same database it would find their lock table and skip creating ours.
  const migrator = new Migrator({
    db: store.db,
    provider: migrationProvider(store.dialect),
    ...(store.schema ? { migrationTableSchema: store.schema } : {}),
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  const failed = results.find((r) => r.status === "Error");
  if (error || failed) {
    const message = error instanceof Error ? error.message : String(error ?? "unknown error");
    throw new MigrationError(failed?.migrationName ?? "(setup)", message);
  }
  return results.filter((r) => r.status === "Success").map((r) => r.migrationName);
}
