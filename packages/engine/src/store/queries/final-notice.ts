import type { Kysely, Selectable } from "kysely";
import type { Database, FinalNoticeTable } from "../schema";

export type StoredFinalNotice = Selectable<FinalNoticeTable>;

/** The final notice, or undefined while none is sealed. */
export async function getFinalNotice(db: Kysely<Database>): Promise<StoredFinalNotice | undefined> {
  return db.selectFrom("final_notice").selectAll().where("id", "=", 1).executeTakeFirst();
}

/** Stores the one final notice; a second insert fails on the primary key (there is only one). */
export async function insertFinalNotice(
  db: Kysely<Database>,
  row: Omit<StoredFinalNotice, "id">,
): Promise<void> {
  await db
    .insertInto("final_notice")
    .values({ id: 1, ...row })
    .execute();
}
