import { coveringAnchor } from "./anchors";
import type { Kysely, Selectable } from "kysely";
import { preparedQuery } from "../prepared";
import type { Database, ScoresTable } from "../schema";

export type ScoreRow = Selectable<ScoresTable>;
/** A score row with its manifest (the canonical text of the sealed score record). */
export type ScoreWithManifest = ScoreRow & { manifest: string; leaf_index: number };

export async function insertScore(db: Kysely<Database>, row: ScoreRow): Promise<void> {
  await db.insertInto("scores").values(row).execute();
}

/** The anchor columns of `latestScoreWithAnchor`, null while the score is not anchored. */
export interface ScoreAnchorColumns {
  anchor_index: number | null;
  tree_size: number | null;
  root: string | null;
  chain_id: number | null;
  registry: string | null;
  tx_hash: string | null;
  block_number: number | null;
  block_hash: string | null;
  anchored_at: number | null;
}

const latestScoreQuery = preparedQuery(
  (db: Kysely<Database>, agentId: string, seasonId: string) =>
    db
      // The latest row first (one index probe), then its record and anchor: joining before the
      // LIMIT would join every hour of the season.
      .selectFrom((eb) =>
        eb
          .selectFrom("scores")
          .selectAll()
          .where("agent_id", "=", agentId)
          .where("season_id", "=", seasonId)
          .orderBy("as_of", "desc")
          .limit(1)
          .as("latest"),
      )
      .innerJoin("records", "records.seal", "latest.seal")
      .leftJoin("anchors", coveringAnchor("records"))
      .selectAll("latest")
      .select([
        "records.body as manifest",
        "records.leaf_index",
        "anchors.anchor_index",
        "anchors.tree_size",
        "anchors.root",
        "anchors.chain_id",
        "anchors.registry",
        "anchors.tx_hash",
        "anchors.block_number",
        "anchors.block_hash",
        "anchors.anchored_at",
      ]),
  2,
);

/**
 * The agent's latest score row with its manifest and the anchor its seal sits in (if any), in one
 * prepared query: the hot path of `GET /agents/:id/score`.
 */
export async function latestScoreWithAnchor(
  db: Kysely<Database>,
  agentId: string,
  seasonId: string,
): Promise<(ScoreWithManifest & ScoreAnchorColumns) | undefined> {
  const [row] = await latestScoreQuery(db, agentId, seasonId);
  return row as (ScoreWithManifest & ScoreAnchorColumns) | undefined;
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
