import type { Kysely, Selectable } from "kysely";
import type { Database, RecordsTable } from "../schema";

export type RecordRow = Selectable<RecordsTable>;

export async function findRecord(db: Kysely<Database>, seal: string): Promise<RecordRow | undefined> {
  return db.selectFrom("records").selectAll().where("seal", "=", seal).executeTakeFirst();
}

/** Inserts one sealed record; its leaf must already be in the log (same transaction). */
export async function insertRecord(db: Kysely<Database>, row: RecordRow): Promise<void> {
  await db.insertInto("records").values(row).execute();
}
