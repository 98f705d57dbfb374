import type { Kysely } from "kysely";
import type { Database, RecordKind } from "../../store/schema";

/** Read-only queries behind the site's extra `/api/v1` views (the engine's own queries stay theirs). */

export async function listSeasons(db: Kysely<Database>) {
  return db
    .selectFrom("seasons")
    .select(["id", "name", "starts_at", "ends_at", "closed_at"])
    .orderBy("starts_at", "desc")
    .orderBy("id")
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

/**
 * The stored manifest text of each seal. Read for one page only, after the page is chosen:
 * joining before the LIMIT would read every manifest of the hour.
 */
export async function manifestTexts(
  db: Kysely<Database>,
  seals: readonly string[],
): Promise<Map<string, string>> {
  if (seals.length === 0) return new Map();
  const rows = await db
    .selectFrom("records")
    .select(["seal", "body"])
    .where("seal", "in", [...seals])
    .execute();
  return new Map(rows.map((r) => [r.seal, r.body]));
}

export interface StoredRecord {
  readonly agent_id: string;
  readonly kind: RecordKind;
  readonly seal: string;
  readonly body: string;
}

/**
 * Records of a season (one agent's when given), in log order; with `belowLeaf`, only those below
 * that tree size (the cycle reads anchored records only, so what it seals can be rechecked).
 */
export async function seasonRecords(
  db: Kysely<Database>,
  seasonId: string,
  kinds: readonly RecordKind[],
  agentId?: string,
  belowLeaf?: number,
): Promise<StoredRecord[]> {
  let query = db
    .selectFrom("records")
    .select(["agent_id", "kind", "seal", "body"])
    .where("season_id", "=", seasonId)
    .where("kind", "in", [...kinds]);
  if (agentId !== undefined) query = query.where("agent_id", "=", agentId);
  if (belowLeaf !== undefined) query = query.where("leaf_index", "<", belowLeaf);
  return query.orderBy("leaf_index").execute();
}

/** The season's agents; with `belowLeaf`, only those whose registration is below that tree size. */
export async function seasonAgents(db: Kysely<Database>, seasonId: string, belowLeaf?: number) {
  let query = db
    .selectFrom("agents")
    .select(["agents.id", "agents.creator", "agents.style"])
    .where("agents.season_id", "=", seasonId);
  if (belowLeaf !== undefined)
    query = query
      .innerJoin("records", "records.seal", "agents.registration_seal")
      .where("records.leaf_index", "<", belowLeaf);
  return query.orderBy("agents.id").execute();
}

/** Every market (asset, window) with at least one consensus event, busiest first. */
export async function consensusMarkets(db: Kysely<Database>) {
  return db
    .selectFrom("consensus_rounds")
    .select(["asset", "window_seconds"])
    .select((eb) => eb.fn.countAll<number>().as("events"))
    .groupBy(["asset", "window_seconds"])
    .orderBy("asset")
    .orderBy("window_seconds")
    .execute();
}
