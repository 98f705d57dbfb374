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

/**
 * One page of a scoring hour with each agent's registration and manifest. The default order is
 * the public leaderboard's (ranked by rank, then unranked by agent id).
 */
export async function standingsPage(
  db: Kysely<Database>,
  seasonId: string,
  asOf: number,
  page: { limit: number; offset: number; sort: StandingSort; descending: boolean },
) {
  const direction = page.descending ? "desc" : "asc";
  let query = db
    .selectFrom("scores")
    .innerJoin("agents", (join) =>
      join.onRef("agents.id", "=", "scores.agent_id").onRef("agents.season_id", "=", "scores.season_id"),
    )
    .innerJoin("records", "records.seal", "scores.seal")
    .select([
      "scores.agent_id",
      "scores.rank",
      "scores.score",
      "scores.reason",
      "scores.terms",
      "scores.seal",
      "agents.creator",
      "agents.style",
      "records.body as manifest",
    ])
    .where("scores.season_id", "=", seasonId)
    .where("scores.as_of", "=", asOf);
  if (page.sort === "rank") {
    // Unranked rows stay last whichever way ranks run.
    query = query
      .orderBy((eb) => eb.case().when("scores.rank", "is", null).then(1).else(0).end())
      .orderBy("scores.rank", direction);
  } else if (page.sort === "agent") {
    query = query.orderBy("scores.agent_id", direction);
  } else {
    query = query.orderBy(page.sort === "creator" ? "agents.creator" : "agents.style", direction);
  }
  return query.orderBy("scores.agent_id", "asc").limit(page.limit).offset(page.offset).execute();
}

export interface StoredRecord {
  readonly agent_id: string;
  readonly kind: RecordKind;
  readonly seal: string;
  readonly body: string;
}

/** Records of a season (one agent's when given), in log order. */
export async function seasonRecords(
  db: Kysely<Database>,
  seasonId: string,
  kinds: readonly RecordKind[],
  agentId?: string,
): Promise<StoredRecord[]> {
  let query = db
    .selectFrom("records")
    .select(["agent_id", "kind", "seal", "body"])
    .where("season_id", "=", seasonId)
    .where("kind", "in", [...kinds]);
  if (agentId !== undefined) query = query.where("agent_id", "=", agentId);
  return query.orderBy("leaf_index").execute();
}

export async function seasonAgents(db: Kysely<Database>, seasonId: string) {
  return db
    .selectFrom("agents")
    .select(["id", "creator", "style"])
    .where("season_id", "=", seasonId)
    .orderBy("id")
    .execute();
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
