import type { Kysely, Selectable } from "kysely";
import type { AgentRetirementsTable, Database } from "../schema";

export type Retirement = Selectable<AgentRetirementsTable>;

export async function findRetirement(
  db: Kysely<Database>,
  seasonId: string,
  agentId: string,
): Promise<Retirement | undefined> {
  return db
    .selectFrom("agent_retirements")
    .selectAll()
    .where("season_id", "=", seasonId)
    .where("agent_id", "=", agentId)
    .executeTakeFirst();
}

export async function insertRetirement(db: Kysely<Database>, row: Retirement): Promise<void> {
  await db.insertInto("agent_retirements").values(row).execute();
}

/**
 * When each agent of the season retired, by agent id; with `belowLeaf`, only retirements whose
 * seal sits below that tree size (the cycle reads anchored facts only).
 */
export async function seasonRetirements(
  db: Kysely<Database>,
  seasonId: string,
  belowLeaf?: number,
): Promise<Map<string, number>> {
  let query = db
    .selectFrom("agent_retirements")
    .select(["agent_id", "retired_at"])
    .where("season_id", "=", seasonId);
  if (belowLeaf !== undefined) query = query.where("leaf_index", "<", belowLeaf);
  const rows = await query.execute();
  return new Map(rows.map((r) => [r.agent_id, Number(r.retired_at)]));
}
