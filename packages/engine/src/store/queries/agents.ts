import type { Kysely, Selectable } from "kysely";
import type { AgentsTable, Database } from "../schema";

export type Agent = Selectable<AgentsTable>;

export async function findAgent(
  db: Kysely<Database>,
  id: string,
  seasonId: string,
): Promise<Agent | undefined> {
  return db
    .selectFrom("agents")
    .selectAll()
    .where("id", "=", id)
    .where("season_id", "=", seasonId)
    .executeTakeFirst();
}

export async function findAgentByKey(
  db: Kysely<Database>,
  seasonId: string,
  agentKey: string,
): Promise<Agent | undefined> {
  return db
    .selectFrom("agents")
    .selectAll()
    .where("season_id", "=", seasonId)
    .where("agent_key", "=", agentKey)
    .executeTakeFirst();
}

export async function insertAgent(db: Kysely<Database>, agent: Agent): Promise<void> {
  await db.insertInto("agents").values(agent).execute();
}
