import type { Insertable, Kysely, Selectable } from "kysely";
import { parameterBatches } from "../batch";
import type { Database, ScoreStatesTable } from "../schema";

export type StoredScoreState = Selectable<ScoreStatesTable>;
export type NewScoreState = Insertable<ScoreStatesTable>;

/** The tables of per-agent folds: the score step's (migration 016) and the risk step's (019), same columns. */
export type FoldTable = "score_states" | "risk_states";

/** Appends fold rows; a row for a (season, agent, log size) already stored is left as it is (the same fold). */
export async function insertFoldStates(
  db: Kysely<Database>,
  table: FoldTable,
  rows: readonly NewScoreState[],
): Promise<void> {
  if (rows.length === 0) return;
  const folds = db as unknown as Kysely<{ t: ScoreStatesTable }>;
  for (const batch of parameterBatches(rows, Object.keys(rows[0]!).length))
    await folds
      .insertInto(table as "t")
      .values(batch)
      .onConflict((oc) => oc.columns(["season_id", "agent_id", "log_size"]).doNothing())
      .execute();
}

/** Each agent's latest fold of the season in `table` covering at most `maxLogSize` leaves. */
export async function latestFoldStates(
  db: Kysely<Database>,
  table: FoldTable,
  seasonId: string,
  maxLogSize: number,
): Promise<StoredScoreState[]> {
  const folds = db as unknown as Kysely<{ s: ScoreStatesTable; t: ScoreStatesTable }>;
  const rows = await folds
    .selectFrom(`${table} as s` as "s")
    .selectAll("s")
    .where("s.season_id", "=", seasonId)
    .where("s.log_size", "<=", maxLogSize)
    .where((eb) =>
      eb(
        "s.log_size",
        "=",
        eb
          .selectFrom(`${table} as t` as "t")
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

export const insertScoreStates = (db: Kysely<Database>, rows: readonly NewScoreState[]) =>
  insertFoldStates(db, "score_states", rows);

/** Each agent's latest score fold of the season covering at most `maxLogSize` leaves. */
export const latestScoreStates = (db: Kysely<Database>, seasonId: string, maxLogSize: number) =>
  latestFoldStates(db, "score_states", seasonId, maxLogSize);
