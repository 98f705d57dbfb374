import { recordBody } from "../record-bodies";
import type { Kysely } from "kysely";
import type { Database, RecordKind } from "../schema";

/** One (kind, author, anchored) group of an agent's records and how many it holds. */
export interface EvidenceGroup {
  readonly kind: string;
  /** The engine wrote it (measured from the chain) rather than the agent's key (declared). */
  readonly engine: boolean;
  readonly anchored: boolean;
  readonly n: number;
}

/**
 * An agent's records of a season counted by kind, author (engine or agent key) and whether a
 * posted anchor of `anchoredSize` leaves covers them: what its evidence page reports.
 */
export async function evidenceGroups(
  db: Kysely<Database>,
  seasonId: string,
  agentId: string,
  anchoredSize: number,
): Promise<EvidenceGroup[]> {
  const rows = await db
    .selectFrom("records")
    .select((eb) => [
      "kind",
      eb.case().when("signer", "is", null).then(1).else(0).end().as("engine"),
      eb.case().when("leaf_index", "<", anchoredSize).then(1).else(0).end().as("anchored"),
      eb.fn.countAll<number>().as("n"),
    ])
    .where("season_id", "=", seasonId)
    .where("agent_id", "=", agentId)
    .groupBy(["kind", "engine", "anchored"])
    .execute();
  return rows.map((r) => ({
    kind: r.kind,
    engine: Number(r.engine) === 1,
    anchored: Number(r.anchored) === 1,
    n: Number(r.n),
  }));
}

/**
 * The bodies of an agent's records of one kind in log order (`limit`: only the first ones): its
 * call records (the latest phase of each call decides if it is open), its first snapshot.
 */
export async function agentBodies(
  db: Kysely<Database>,
  seasonId: string,
  agentId: string,
  kind: RecordKind,
  limit?: number,
): Promise<string[]> {
  let query = db
    .selectFrom("records")
    .select(recordBody().as("body"))
    .where("season_id", "=", seasonId)
    .where("agent_id", "=", agentId)
    .where("kind", "=", kind)
    .orderBy("leaf_index");
  if (limit !== undefined) query = query.limit(limit);
  return (await query.execute()).map((r) => r.body);
}
