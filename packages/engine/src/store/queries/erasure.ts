import { sql, type Kysely, type Selectable } from "kysely";
import type { DialectName } from "../dialect";
import type { Database, ErasableTextsTable, ErasuresTable } from "../schema";

export type ErasableTextRow = Selectable<ErasableTextsTable>;
export type ErasureRow = Selectable<ErasuresTable>;

/** Stores the text a sealed body's `<field>Hash` stands for (the caller has checked the hash). */
export async function insertErasableText(db: Kysely<Database>, row: ErasableTextRow): Promise<void> {
  await db.insertInto("erasable_texts").values(row).execute();
}

/** The texts kept beside one record, by field. */
export async function erasableTextsOf(db: Kysely<Database>, seal: string): Promise<ErasableTextRow[]> {
  return db.selectFrom("erasable_texts").selectAll().where("seal", "=", seal).orderBy("field").execute();
}

/** The erased fields of one record. */
export async function erasuresOf(db: Kysely<Database>, seal: string): Promise<ErasureRow[]> {
  return db.selectFrom("erasures").selectAll().where("seal", "=", seal).orderBy("field").execute();
}

/**
 * Deletes one field's text and salt and logs the erasure, in one transaction (the log row also
 * closes a field whose text was never posted); true when a text was deleted. A second erasure of
 * the same field fails on the log's primary key. On SQLite the deleted bytes are overwritten
 * (`secure_delete`) and the write-ahead log is checkpointed and truncated, so no copy of the text
 * is left in the files; on PostgreSQL `VACUUM` reclaims the dead row (docs/engine.md).
 */
export async function eraseText(
  db: Kysely<Database>,
  dialect: DialectName,
  row: ErasureRow,
): Promise<boolean> {
  if (dialect === "sqlite") await sql`PRAGMA secure_delete = ON`.execute(db);
  const erased = await db.transaction().execute(async (trx) => {
    const deleted = await trx
      .deleteFrom("erasable_texts")
      .where("seal", "=", row.seal)
      .where("field", "=", row.field)
      .executeTakeFirst();
    await trx.insertInto("erasures").values(row).execute();
    return deleted.numDeletedRows > 0n;
  });
  if (dialect === "sqlite") await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
  return erased;
}
