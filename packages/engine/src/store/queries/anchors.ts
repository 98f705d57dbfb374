import { sql, type JoinBuilder, type Kysely, type Selectable } from "kysely";
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

/** Tables whose rows sit in the log at `leaf_index`. */
type LeafTable = "records" | "risk_rows" | "referee_boards" | "stewardship_days";

/**
 * The join condition "this is the first anchor whose tree covers the row's leaf", i.e. the anchor
 * that anchored it: `.leftJoin("anchors", coveringAnchor("risk_rows"))` gives null anchor
 * columns while the row is pending.
 */
export function coveringAnchor<T extends LeafTable>(table: T) {
  // Raw SQL for the correlated subquery: Kysely cannot type a reference to a table chosen by a
  // type parameter. Both backends run it as written.
  return <DB, TB extends keyof DB>(join: JoinBuilder<DB, TB>) =>
    join.on(
      sql<boolean>`anchors.anchor_index = (select covering.anchor_index from anchors as covering where covering.tree_size > ${sql.ref(`${table}.leaf_index`)} order by covering.tree_size asc limit 1)`,
    );
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
