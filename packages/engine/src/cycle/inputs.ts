import type { Hex32 } from "@augur/scorer";
import type { Kysely } from "kysely";
import { seasonClosesAt } from "../store/queries/seasons";
import type { Database } from "../store/schema";
import type { AgentInputs, AgentSummary, PriorScore, SeasonHeader, SealedInput } from "./seams";

/** Agents whose records are read per query when streaming a season. */
export const AGENT_CHUNK = 200;

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

/** The agents with their anchored records, `AGENT_CHUNK` agents per query, in the header's order. */
export async function* streamAgentInputs(
  db: Kysely<Database>,
  header: SeasonHeader,
  anchoredSize: number,
  chunkSize = AGENT_CHUNK,
): AsyncGenerator<AgentInputs> {
  for (let i = 0; i < header.agents.length; i += chunkSize) {
    const chunk = header.agents.slice(i, i + chunkSize);
    const rows = await db
      .selectFrom("records")
      .select(["agent_id", "kind", "seal", "leaf_index", "body"])
      .where("season_id", "=", header.seasonId)
      .where(
        "agent_id",
        "in",
        chunk.map((a) => a.agentId),
      )
      .where("kind", "in", ["snapshot", "decision", "trade", "call"])
      .where("leaf_index", "<", anchoredSize)
      .orderBy("leaf_index")
      .execute();
    const byAgent = new Map<string, SealedInput[]>(chunk.map((a) => [a.agentId, []]));
    for (const r of rows) {
      byAgent.get(r.agent_id)!.push({
        kind: r.kind,
        seal: r.seal as Hex32,
        leafIndex: r.leaf_index,
        body: JSON.parse(r.body) as unknown,
      });
    }
    for (const agent of chunk) yield withRecords(agent, byAgent.get(agent.agentId)!);
  }
}

function withRecords(agent: AgentSummary, records: SealedInput[]): AgentInputs {
  return { ...agent, records };
}

async function latestAnchoredScores(
  db: Kysely<Database>,
  creators: string[],
  anchoredSize: number,
): Promise<PriorScore[]> {
  const rows = await db
    .selectFrom("scores")
    .innerJoin("records", "records.seal", "scores.seal")
    .innerJoin("agents", (join) =>
      join.onRef("agents.id", "=", "scores.agent_id").onRef("agents.season_id", "=", "scores.season_id"),
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
    .where("records.leaf_index", "<", anchoredSize)
    .orderBy("scores.as_of", "desc")
    .execute();
  const latest = new Map<string, PriorScore>();
  for (const r of rows) {
    const key = `${r.agent_id}|${r.season_id}`;
    if (latest.has(key)) continue;
    latest.set(key, {
      agentId: r.agent_id,
      seasonId: r.season_id,
      creator: r.creator,
      asOf: r.as_of,
      seal: r.seal as Hex32,
      terms: JSON.parse(r.terms) as Record<string, unknown>,
    });
  }
  return [...latest.values()];
}
