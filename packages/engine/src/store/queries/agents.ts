import type { Insertable, Kysely, Selectable } from "kysely";
import type { AgentsTable, Database } from "../schema";
import { preparedQuery } from "../prepared";

export type Agent = Selectable<AgentsTable>;

const agentById = preparedQuery(
  (db, id: string, seasonId: string) =>
    db.selectFrom("agents").selectAll().where("id", "=", id).where("season_id", "=", seasonId),
  2,
);

export async function findAgent(
  db: Kysely<Database>,
  id: string,
  seasonId: string,
): Promise<Agent | undefined> {
  const [row] = await agentById(db, id, seasonId);
  return row;
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

export async function findAgentByWallet(
  db: Kysely<Database>,
  seasonId: string,
  wallet: string,
): Promise<Agent | undefined> {
  return db
    .selectFrom("agents")
    .selectAll()
    .where("season_id", "=", seasonId)
    .where("wallet", "=", wallet)
    .executeTakeFirst();
}

/** The season's agents that bound a wallet, by id: the accounts the engine measures. */
export async function seasonWallets(db: Kysely<Database>, seasonId: string) {
  return db
    .selectFrom("agents")
    .select(["id", "wallet", "registered_at"])
    .where("season_id", "=", seasonId)
    .where("wallet", "is not", null)
    .orderBy("id")
    .execute() as Promise<Array<{ id: string; wallet: string; registered_at: number }>>;
}

export async function insertAgent(db: Kysely<Database>, agent: Insertable<AgentsTable>): Promise<void> {
  await db.insertInto("agents").values(agent).execute();
}

/** The agent registered with `agentKey` in the season running at `at` (the latest-starting one), if any. */
export async function agentOfKeyAt(
  db: Kysely<Database>,
  agentKey: string,
  at: number,
): Promise<{ id: string; season_id: string } | undefined> {
  return db
    .selectFrom("agents")
    .innerJoin("seasons", "seasons.id", "agents.season_id")
    .select(["agents.id", "agents.season_id"])
    .where("agents.agent_key", "=", agentKey)
    .where("seasons.starts_at", "<=", at)
    .where("seasons.ends_at", ">", at)
    .orderBy("seasons.starts_at", "desc")
    .executeTakeFirst();
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

/** The season's agents whose registration sits below `anchoredSize`, by id, with their registration seal. */
export async function anchoredRegistrations(db: Kysely<Database>, seasonId: string, anchoredSize: number) {
  return db
    .selectFrom("agents")
    .innerJoin("records", "records.seal", "agents.registration_seal")
    .select(["agents.id", "agents.creator", "agents.style", "agents.registration_seal"])
    .where("agents.season_id", "=", seasonId)
    .where("records.leaf_index", "<", anchoredSize)
    .orderBy("agents.id")
    .execute();
}
