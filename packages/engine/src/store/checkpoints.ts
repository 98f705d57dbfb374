import { sql } from "kysely";
import type { Store } from "./open";

/** SQLite's own threshold: a commit that leaves the write-ahead log past this many pages checkpoints it. */
export const SQLITE_AUTOCHECKPOINT_PAGES = 1_000;

/** What one checkpoint did: pages in the write-ahead log, and how many of them are now in the file. */
export interface CheckpointResult {
  readonly busy: boolean;
  readonly logPages: number;
  readonly checkpointedPages: number;
}

/**
 * Sets the size of write-ahead log past which a commit on this connection checkpoints it itself
 * (0: never; another connection does). A checkpoint copies the log back into the file and syncs
 * both, so whichever connection commits past the threshold waits for the disk: the record writer
 * moves that wait off the request loop (`api/record-writer.ts`). No-op on PostgreSQL.
 */
export async function setAutoCheckpoint(store: Store, pages: number): Promise<void> {
  if (store.dialect !== "sqlite") return;
  if (!Number.isSafeInteger(pages) || pages < 0) throw new RangeError(`checkpoint pages ${pages}`);
  // Safe interpolation: a checked non-negative integer (PRAGMA takes no bound parameters).
  await sql.raw(`PRAGMA wal_autocheckpoint = ${pages}`).execute(store.db);
}

/**
 * A passive checkpoint: copies what it can of the write-ahead log into the file without waiting
 * for readers or writers (so it never blocks the connection that serves). Null on PostgreSQL.
 */
export async function checkpointPassive(store: Store): Promise<CheckpointResult | null> {
  if (store.dialect !== "sqlite") return null;
  const { rows } = await sql<{
    busy: number;
    log: number;
    checkpointed: number;
  }>`PRAGMA wal_checkpoint(PASSIVE)`.execute(store.db);
  const row = rows[0]!;
  return { busy: row.busy !== 0, logPages: row.log, checkpointedPages: row.checkpointed };
}

/**
 * This connection's `PRAGMA data_version`: it changes whenever another connection (or process)
 * commits to the file, so equal values mean nothing else was written between them. Null on
 * PostgreSQL.
 */
export async function dataVersion(store: Store): Promise<number | null> {
  if (store.dialect !== "sqlite") return null;
  const { rows } = await sql<{ data_version: number }>`PRAGMA data_version`.execute(store.db);
  return rows[0]!.data_version;
}
