import type { Kysely, Selectable } from "kysely";
import type { AnchorsTable, Database } from "../schema";

export type Anchor = Selectable<AnchorsTable>;

export async function insertAnchor(db: Kysely<Database>, anchor: Anchor): Promise<void> {
  await db.insertInto("anchors").values(anchor).execute();
}

/** The first anchor whose tree holds leaf `leafIndex`: the one that anchored it. */
export async function anchorCovering(db: Kysely<Database>, leafIndex: number): Promise<Anchor | undefined> {
  return db
    .selectFrom("anchors")
    .selectAll()
    .where("tree_size", ">", leafIndex)
    .orderBy("tree_size", "asc")
    .limit(1)
    .executeTakeFirst();
}

export async function latestAnchor(db: Kysely<Database>): Promise<Anchor | undefined> {
  return db.selectFrom("anchors").selectAll().orderBy("anchor_index", "desc").limit(1).executeTakeFirst();
}

/** Anchors in index order, starting after `after` (exclusive; -1 for the first page). */
export async function listAnchors(db: Kysely<Database>, after: number, limit: number): Promise<Anchor[]> {
  return db
    .selectFrom("anchors")
    .selectAll()
    .where("anchor_index", ">", after)
    .orderBy("anchor_index", "asc")
    .limit(limit)
    .execute();
}
