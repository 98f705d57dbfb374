import { recordBody } from "../record-bodies";
import { ANCHOR_COLUMNS, coveringAnchor } from "./anchors";
import type { Kysely, Selectable } from "kysely";
import { insertBatched } from "../batch";
import { preparedQuery } from "../prepared";
import type { Database, ScoresTable } from "../schema";

export type ScoreRow = Selectable<ScoresTable>;
/** A score row with its manifest (the canonical text of the sealed score record). */
export type ScoreWithManifest = ScoreRow & { manifest: string; leaf_index: number };

export async function insertScore(db: Kysely<Database>, row: ScoreRow): Promise<void> {
  await db.insertInto("scores").values(row).execute();
}

export async function insertScores(db: Kysely<Database>, rows: readonly ScoreRow[]): Promise<void> {
  await insertBatched(db, "scores", rows);
}

/**
 * Whether the season already has rows in `table` as of `asOf`: the cycle writes each (season,
 * hour) of scores and of risk rows once.
 */
export async function hasSeasonRowsAt(
  db: Kysely<Database>,
  table: "scores" | "risk_rows",
  seasonId: string,
  asOf: number,
): Promise<boolean> {
  const row = await db
    .selectFrom(table)
    .select("season_id")
    .where("season_id", "=", seasonId)
    .where("as_of", "=", asOf)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The latest anchored score row of every agent of `creators`, any season: per agent the newest
 * `as_of` whose manifest sits below `anchoredSize`, found by walking that agent's rows newest
 * first through the scores key (usually one step), so the query costs about one row per agent
 * however many hours the seasons have been scored.
 */
export async function latestAnchoredScores(db: Kysely<Database>, creators: string[], anchoredSize: number) {
  return db
    .selectFrom("agents")
    .innerJoin("scores", (join) =>
      join.onRef("scores.agent_id", "=", "agents.id").onRef("scores.season_id", "=", "agents.season_id"),
    )
    .select([
      "scores.agent_id",
      "scores.season_id",
      "scores.as_of",
      "scores.seal",
      "scores.terms",
      "agents.creator",
    ])
    .where("agents.creator", "in", creators)
    .where("scores.as_of", "=", (eb) =>
      eb
        .selectFrom("scores as s")
        .innerJoin("records", "records.seal", "s.seal")
        .select("s.as_of")
        .whereRef("s.agent_id", "=", "agents.id")
        .whereRef("s.season_id", "=", "agents.season_id")
        .where("records.leaf_index", "<", anchoredSize)
        .orderBy("s.as_of", "desc")
        .limit(1),
    )
    .orderBy("scores.agent_id")
    .orderBy("scores.season_id")
    .execute();
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

/** The manifest and covering-anchor columns joined onto score rows (null anchor columns: pending). */
const ANCHORED_COLUMNS = [recordBody().as("manifest"), "records.leaf_index", ...ANCHOR_COLUMNS] as const;

/** The agent's newest score row of the season (at or before `asOf` when given), joined after the LIMIT. */
function scoreWithAnchor(db: Kysely<Database>, agentId: string, seasonId: string, asOf?: number) {
  return (
    db
      // The row first (one index probe), then its record and anchor: joining before the LIMIT
      // would join every hour of the season.
      .selectFrom((eb) => {
        let row = eb
          .selectFrom("scores")
          .selectAll()
          .where("agent_id", "=", agentId)
          .where("season_id", "=", seasonId);
        if (asOf !== undefined) row = row.where("as_of", "<=", asOf);
        return row.orderBy("as_of", "desc").limit(1).as("latest");
      })
      .innerJoin("records", "records.seal", "latest.seal")
      .leftJoin("anchors", coveringAnchor("records"))
      .selectAll("latest")
      .select(ANCHORED_COLUMNS)
  );
}

const latestScoreQuery = preparedQuery(
  (db: Kysely<Database>, agentId: string, seasonId: string) => scoreWithAnchor(db, agentId, seasonId),
  2,
);
const scoreAtQuery = preparedQuery(
  (db: Kysely<Database>, agentId: string, seasonId: string, asOf: number) =>
    scoreWithAnchor(db, agentId, seasonId, asOf),
  3,
);

/** The score row in force at `asOf`: the newest the cycle wrote at or before it. */
export async function scoreAtWithAnchor(
  db: Kysely<Database>,
  agentId: string,
  seasonId: string,
  asOf: number,
): Promise<(ScoreWithManifest & ScoreAnchorColumns) | undefined> {
  const [row] = await scoreAtQuery(db, agentId, seasonId, asOf);
  return row as (ScoreWithManifest & ScoreAnchorColumns) | undefined;
}

/**
 * One page of the agent's score rows in the season, newest first, each with its manifest and
 * anchor columns; `before` (exclusive `as_of`) continues from the previous page.
 */
export async function scoreHistoryWithAnchor(
  db: Kysely<Database>,
  agentId: string,
  seasonId: string,
  page: { limit: number; before?: number },
): Promise<Array<ScoreWithManifest & ScoreAnchorColumns>> {
  const rows = await db
    .selectFrom((eb) => {
      let rows = eb
        .selectFrom("scores")
        .selectAll()
        .where("agent_id", "=", agentId)
        .where("season_id", "=", seasonId);
      if (page.before !== undefined) rows = rows.where("as_of", "<", page.before);
      return rows.orderBy("as_of", "desc").limit(page.limit).as("latest");
    })
    .innerJoin("records", "records.seal", "latest.seal")
    .leftJoin("anchors", coveringAnchor("records"))
    .selectAll("latest")
    .select(ANCHORED_COLUMNS)
    .orderBy("latest.as_of", "desc")
    .execute();
  return rows as Array<ScoreWithManifest & ScoreAnchorColumns>;
}

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

export const STANDING_SORTS = ["rank", "agent", "creator", "style"] as const;
export type StandingSort = (typeof STANDING_SORTS)[number];

export async function countStandings(db: Kysely<Database>, seasonId: string, asOf: number): Promise<number> {
  const row = await db
    .selectFrom("scores")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("season_id", "=", seasonId)
    .where("as_of", "=", asOf)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

const SCORE_COLUMNS = ["agent_id", "rank", "score", "reason", "terms", "seal"] as const;

/** A leaderboard row: the score columns and the agent's registration. */
export interface StandingRecord {
  agent_id: string;
  rank: number | null;
  score: number | null;
  reason: string | null;
  terms: string;
  seal: string;
  creator: string;
  style: string;
}

/**
 * One page of a scoring hour. By rank (the public leaderboard's order: ranked by rank, then
 * unranked by agent id) the page is read in two index range scans — ranked rows, then unranked
 * ones — so a page costs about its own size, not the season's; other orders sort the hour.
 */
export async function standingsPage(
  db: Kysely<Database>,
  seasonId: string,
  asOf: number,
  page: { limit: number; offset: number; sort: StandingSort; descending: boolean },
): Promise<StandingRecord[]> {
  const direction = page.descending ? "desc" : "asc";
  const hour = db.selectFrom("scores").where("season_id", "=", seasonId).where("as_of", "=", asOf);
  let rows: {
    agent_id: string;
    rank: number | null;
    score: number | null;
    reason: string | null;
    terms: string;
    seal: string;
  }[];
  if (page.sort === "rank") {
    const ranked = await hour
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("rank", "is not", null)
      .executeTakeFirst();
    const rankedCount = Number(ranked?.n ?? 0);
    rows = [];
    if (page.offset < rankedCount) {
      rows = await hour
        .select(SCORE_COLUMNS)
        .where("rank", "is not", null)
        .orderBy("rank", direction)
        .orderBy("agent_id", "asc")
        .limit(page.limit)
        .offset(page.offset)
        .execute();
    }
    if (rows.length < page.limit) {
      const unranked = await hour
        .select(SCORE_COLUMNS)
        .where("rank", "is", null)
        .orderBy("agent_id", "asc")
        .limit(page.limit - rows.length)
        .offset(Math.max(0, page.offset - rankedCount))
        .execute();
      rows = rows.concat(unranked);
    }
  } else if (page.sort === "agent") {
    rows = await hour
      .select(SCORE_COLUMNS)
      .orderBy("agent_id", direction)
      .limit(page.limit)
      .offset(page.offset)
      .execute();
  } else {
    const key = page.sort === "creator" ? "agents.creator" : "agents.style";
    rows = await db
      .selectFrom("scores")
      .innerJoin("agents", (join) =>
        join.onRef("agents.id", "=", "scores.agent_id").onRef("agents.season_id", "=", "scores.season_id"),
      )
      .select(SCORE_COLUMNS.map((c) => `scores.${c}` as const))
      .where("scores.season_id", "=", seasonId)
      .where("scores.as_of", "=", asOf)
      .orderBy(key, direction)
      .orderBy("scores.agent_id", "asc")
      .limit(page.limit)
      .offset(page.offset)
      .execute();
  }
  const ids = rows.map((r) => r.agent_id);
  const agents =
    ids.length === 0
      ? []
      : await db
          .selectFrom("agents")
          .select(["id", "creator", "style"])
          .where("season_id", "=", seasonId)
          .where("id", "in", ids)
          .execute();
  const byId = new Map(agents.map((a) => [a.id, a]));
  return rows.map((r) => ({
    ...r,
    creator: byId.get(r.agent_id)?.creator ?? "",
    style: byId.get(r.agent_id)?.style ?? "",
  }));
}
