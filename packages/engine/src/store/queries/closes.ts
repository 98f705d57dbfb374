import { insertBatched } from "../batch";
import type { Insertable, Kysely, Selectable } from "kysely";
import type { Database, HourlyClosesTable } from "../schema";

export type StoredClose = Selectable<HourlyClosesTable>;
export type NewClose = Insertable<HourlyClosesTable>;

/** The latest hour cached for `asset` (unix seconds), or undefined before its first close. */
export async function lastCloseHour(db: Kysely<Database>, asset: string): Promise<number | undefined> {
  const row = await db
    .selectFrom("hourly_closes")
    .select((eb) => eb.fn.max<number | null>("at").as("at"))
    .where("asset", "=", asset)
    .executeTakeFirst();
  return row?.at == null ? undefined : Number(row.at);
}

/** The hours of `asset` among `hours` that already have a close (the cache writes each once). */
export async function cachedHours(
  db: Kysely<Database>,
  asset: string,
  hours: readonly number[],
): Promise<Set<number>> {
  if (hours.length === 0) return new Set();
  const rows = await db
    .selectFrom("hourly_closes")
    .select("at")
    .where("asset", "=", asset)
    .where("at", "in", [...hours])
    .execute();
  return new Set(rows.map((r) => Number(r.at)));
}

/** Which cached closes to read besides the hours: a log prefix and some assets only. */
export interface CloseFilter {
  /** Only closes whose log leaf is below this tree size (an anchored size): a fixed, reproducible set. */
  readonly belowLeaf?: number;
  /** Only these assets (lowercase); absent: every asset. */
  readonly assets?: readonly string[];
}

/** Every cached close with `from <= at <= to` (and the filter), by asset then hour. */
export async function closesBetween(
  db: Kysely<Database>,
  from: number,
  to: number,
  filter: CloseFilter = {},
): Promise<StoredClose[]> {
  if (filter.assets?.length === 0) return [];
  let query = db.selectFrom("hourly_closes").selectAll().where("at", ">=", from).where("at", "<=", to);
  if (filter.belowLeaf !== undefined) query = query.where("leaf_index", "<", filter.belowLeaf);
  if (filter.assets) query = query.where("asset", "in", [...filter.assets]);
  return query.orderBy("asset").orderBy("at").execute();
}

export async function insertCloses(db: Kysely<Database>, rows: readonly NewClose[]): Promise<void> {
  await insertBatched(db, "hourly_closes", rows);
}
