import type { Kysely, Selectable } from "kysely";
import type { Database, ScoresTable } from "../schema";

export type ScoreRow = Selectable<ScoresTable>;
/** A score row with its manifest (the canonical text of the sealed score record). */
export type ScoreWithManifest = ScoreRow & { manifest: string; leaf_index: number };

export async function insertScore(db: Kysely<Database>, row: ScoreRow): Promise<void> {
  await db.insertInto("scores").values(row).execute();
}

/** The agent's latest score row in a season, with its manifest. */
export async function latestScore(
  db: Kysely<Database>,
  agentId: string,
  seasonId: string,
): Promise<ScoreWithManifest | undefined> {
  return db
    .selectFrom("scores")
    .innerJoin("records", "records.seal", "scores.seal")
    .selectAll("scores")
    .select(["records.body as manifest", "records.leaf_index"])
    .where("scores.agent_id", "=", agentId)
    .where("scores.season_id", "=", seasonId)
    .orderBy("scores.as_of", "desc")
    .limit(1)
    .executeTakeFirst();
}

/** The as-of time of the season's latest scoring cycle, if any. */
export async function latestScoringTime(db: Kysely<Database>, seasonId: string): Promise<number | undefined> {
  const row = await db
    .selectFrom("scores")
    .select((eb) => eb.fn.max<number | null>("as_of").as("as_of"))
    .where("season_id", "=", seasonId)
    .executeTakeFirst();
  return row?.as_of == null ? undefined : Number(row.as_of);
}

/** The rows of one scoring cycle, ranked first (by rank), then unranked by agent id. */
export async function leaderboard(
  db: Kysely<Database>,
  seasonId: string,
  asOf: number,
  limit: number,
  offset: number,
): Promise<ScoreRow[]> {
  return db
    .selectFrom("scores")
    .selectAll()
    .where("season_id", "=", seasonId)
    .where("as_of", "=", asOf)
    .orderBy((eb) => eb.case().when("rank", "is", null).then(1).else(0).end())
    .orderBy("rank", "asc")
    .orderBy("agent_id", "asc")
    .limit(limit)
    .offset(offset)
    .execute();
}
