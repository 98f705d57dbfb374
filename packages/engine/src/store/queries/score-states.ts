import type { Insertable, Kysely, Selectable } from "kysely";
import { parameterBatches } from "../batch";
import type { Database, ScoreStatesTable } from "../schema";

export type StoredScoreState = Selectable<ScoreStatesTable>;
export type NewScoreState = Insertable<ScoreStatesTable>;

/** Appends fold rows; a row for a (season, agent, log size) already stored is left as it is (the same fold). */
export async function insertScoreStates(db: Kysely<Database>, rows: readonly NewScoreState[]): Promise<void> {
  if (rows.length === 0) return;
  for (const batch of parameterBatches(rows, Object.keys(rows[0]!).length))
    await db
      .insertInto("score_states")
      .values(batch)
      .onConflict((oc) => oc.columns(["season_id", "agent_id", "log_size"]).doNothing())
      .execute();
}

/** Each agent's latest fold of the season covering at most `maxLogSize` leaves. */
export async function latestScoreStates(
  db: Kysely<Database>,
  seasonId: string,
  maxLogSize: number,
): Promise<StoredScoreState[]> {
  const rows = await db
    .selectFrom("score_states as s")
    .selectAll("s")
    .where("s.season_id", "=", seasonId)
    .where("s.log_size", "<=", maxLogSize)
    .where((eb) =>
      eb(
        "s.log_size",
        "=",
        eb
          .selectFrom("score_states as t")
          .select((t) => t.fn.max<number>("t.log_size").as("m"))
          .whereRef("t.season_id", "=", "s.season_id")
          .whereRef("t.agent_id", "=", "s.agent_id")
          .where("t.log_size", "<=", maxLogSize),
      ),
    )
    .orderBy("s.agent_id")
    .execute();
  return rows.map((r) => ({ ...r, log_size: Number(r.log_size), created_at: Number(r.created_at) }));
}
