import type { Hex32 } from "@augur/scorer";
import type { Kysely } from "kysely";
import { seasonClosesAt } from "../store/queries/seasons";
import type { Database } from "../store/schema";
import type { SeasonRows } from "./season-rows";
import type { AgentInputs, PriorScore, SeasonHeader } from "./seams";

/**
 * Everything but the agents' own records, limited to leaves below `anchoredSize`: a score only
 * ever names seals that already sit in a mined anchor.
 */
export async function loadSeasonHeader(
  db: Kysely<Database>,
  seasonId: string,
  asOf: number,
  anchoredSize: number,
): Promise<SeasonHeader> {
  const row = await db.selectFrom("seasons").selectAll().where("id", "=", seasonId).executeTakeFirstOrThrow();
  const agents = await db
    .selectFrom("agents")
    .innerJoin("records", "records.seal", "agents.registration_seal")
    .select(["agents.id", "agents.creator", "agents.style", "agents.registration_seal"])
    .where("agents.season_id", "=", seasonId)
    .where("records.leaf_index", "<", anchoredSize)
    .orderBy("agents.id")
    .execute();
  const creators = [...new Set(agents.map((a) => a.creator))];
  return {
    seasonId,
    season: { startsAt: row.starts_at, endsAt: seasonClosesAt(row) },
    asOf,
    agents: agents.map((a) => ({
      agentId: a.id,
      creator: a.creator,
      style: a.style,
      registrationSeal: a.registration_seal as Hex32,
    })),
    priorScores: creators.length === 0 ? [] : await latestAnchoredScores(db, creators, anchoredSize),
  };
}

/** The header's agents, in its order, each with its records from `rows`. */
export function* agentInputs(header: SeasonHeader, rows: SeasonRows): Generator<AgentInputs> {
  for (const agent of header.agents) yield { ...agent, records: rows.of(agent.agentId) };
}

/**
 * The latest anchored score row of every agent of `creators`, any season: per agent the newest
 * `as_of` whose manifest sits below `anchoredSize`, found by walking that agent's rows newest
 * first through the scores key (usually one step), so the query costs about one row per agent
 * however many hours the seasons have been scored.
 */
async function latestAnchoredScores(
  db: Kysely<Database>,
  creators: string[],
  anchoredSize: number,
): Promise<PriorScore[]> {
  const rows = await db
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
  return rows.map((r) => ({
    agentId: r.agent_id,
    seasonId: r.season_id,
    creator: r.creator,
    asOf: r.as_of,
    seal: r.seal as Hex32,
    terms: JSON.parse(r.terms) as Record<string, unknown>,
  }));
}
