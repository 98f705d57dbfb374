import type { Kysely } from "kysely";
import type { Database } from "../schema";

/** The newest hour boundary of `seasonId` the measure step finished, or undefined before its first. */
export async function lastMeasuredHour(db: Kysely<Database>, seasonId: string): Promise<number | undefined> {
  const row = await db
    .selectFrom("measured_hours")
    .select((eb) => eb.fn.max<number | null>("at").as("at"))
    .where("season_id", "=", seasonId)
    .executeTakeFirst();
  return row?.at == null ? undefined : Number(row.at);
}

/** Marks hour `at` of `seasonId` measured (in the transaction that appended its records); once only. */
export async function markHourMeasured(
  db: Kysely<Database>,
  seasonId: string,
  at: number,
  now: number,
): Promise<void> {
  await db
    .insertInto("measured_hours")
    .values({ season_id: seasonId, at, measured_at: now })
    .onConflict((oc) => oc.columns(["season_id", "at"]).doNothing())
    .execute();
}
