import { sql, type JoinBuilder, type Kysely, type Selectable } from "kysely";
import { AnchorMismatchError } from "../errors";
import type { Store } from "../open";
import type { AnchorEventsTable, AnchorsTable, Database } from "../schema";
import type { Source } from "./events";

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
type LeafTable = "records" | "risk_rows" | "risk_readings" | "referee_boards" | "stewardship_days";

/**
 * The join condition "this is the first anchor whose tree covers the row's leaf", i.e. the anchor
 * that anchored it: `.leftJoin("anchors", coveringAnchor("risk_rows"))` gives null anchor
 * columns while the row is pending.
 */
/** The covering anchor's columns, selected beside a sealed row joined with `coveringAnchor`. */
export const ANCHOR_COLUMNS = [
  "anchors.anchor_index",
  "anchors.tree_size",
  "anchors.root",
  "anchors.chain_id",
  "anchors.registry",
  "anchors.tx_hash",
  "anchors.block_number",
  "anchors.block_hash",
  "anchors.anchored_at",
] as const;

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

/**
 * Stores a mined anchor once, under the log's writer lock; an anchor already stored with the same
 * head is a no-op, one with another head, or a root the log does not have, is refused.
 */
export async function recordAnchorOnce(store: Pick<Store, "db" | "log">, anchor: Anchor): Promise<void> {
  await store.db.transaction().execute(async (trx) => {
    await store.log.lockForAppend(trx); // one writer at a time, across processes too
    const existing = await trx
      .selectFrom("anchors")
      .select(["anchor_index", "tree_size", "root"])
      .where("anchor_index", "=", anchor.anchor_index)
      .executeTakeFirst();
    if (existing) {
      if (existing.tree_size !== anchor.tree_size || existing.root !== anchor.root) {
        throw new AnchorMismatchError(anchor.anchor_index, "already stored with another head");
      }
      return;
    }
    if (anchor.root !== (await store.log.root(trx, anchor.tree_size))) {
      throw new Error(
        `anchor ${anchor.anchor_index} root does not match the log at size ${anchor.tree_size}`,
      );
    }
    await insertAnchor(trx, anchor);
  });
}

export type AnchorEvent = Selectable<AnchorEventsTable>;

/** The registry's `Anchored` events confirmed by block `through` whose anchor is not stored yet, by index. */
export async function unrecordedAnchorEvents(
  db: Kysely<Database>,
  source: Source,
  through: number,
): Promise<AnchorEvent[]> {
  return db
    .selectFrom("anchor_events")
    .selectAll()
    .where("chain_id", "=", source.chainId)
    .where("registry", "=", source.address)
    .where("block_number", "<=", through)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("anchors")
            .select("anchor_index")
            .whereRef("anchors.anchor_index", "=", "anchor_events.anchor_index"),
        ),
      ),
    )
    .orderBy("anchor_index")
    .execute();
}

/** The transaction the indexer saw emit Anchored(index) on this registry, if any. */
export async function anchorEventTx(
  db: Kysely<Database>,
  source: Source,
  index: number,
): Promise<string | undefined> {
  const row = await db
    .selectFrom("anchor_events")
    .select("tx_hash")
    .where("chain_id", "=", source.chainId)
    .where("registry", "=", source.address)
    .where("anchor_index", "=", index)
    .executeTakeFirst();
  return row?.tx_hash;
}

/** Whether an anchor of a head of this size is stored. */
export async function hasAnchorOfSize(db: Kysely<Database>, treeSize: number): Promise<boolean> {
  const row = await db
    .selectFrom("anchors")
    .select("anchor_index")
    .where("tree_size", "=", treeSize)
    .executeTakeFirst();
  return row !== undefined;
}
