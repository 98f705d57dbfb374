import type { Insertable, Kysely, Selectable } from "kysely";
import type { Database, SeasonsTable } from "../schema";
import { preparedQuery } from "../prepared";

export type Season = Selectable<SeasonsTable>;

/** Without `inputs`, a season is declared (the stores before migration 011 hold only those). */
export async function insertSeason(db: Kysely<Database>, season: Insertable<SeasonsTable>): Promise<void> {
  await db.insertInto("seasons").values(season).execute();
}

const seasonById = preparedQuery(
  (db, id: string) => db.selectFrom("seasons").selectAll().where("id", "=", id),
  1,
);

export async function findSeason(db: Kysely<Database>, id: string): Promise<Season | undefined> {
  const [row] = await seasonById(db, id);
  return row;
}

/** A season takes records until it ends or the operator closes it, whichever comes first. */
export function seasonClosesAt(season: Season): number {
  return season.closed_at === null ? season.ends_at : Math.min(season.ends_at, season.closed_at);
}

export async function closeSeason(db: Kysely<Database>, id: string, at: number): Promise<void> {
  await db
    .updateTable("seasons")
    .set({ closed_at: at })
    .where("id", "=", id)
    .where("closed_at", "is", null)
    .execute();
}

export async function listSeasons(db: Kysely<Database>) {
  return db
    .selectFrom("seasons")
    .select(["id", "name", "starts_at", "ends_at", "closed_at"])
    .orderBy("starts_at", "desc")
    .orderBy("id")
    .execute();
}

/** Every season started by `at`, open or closed (the cycle's steps decide which still take a turn). */
export async function seasonsStartedBy(db: Kysely<Database>, at: number): Promise<Season[]> {
  return db.selectFrom("seasons").selectAll().where("starts_at", "<=", at).execute();
}
