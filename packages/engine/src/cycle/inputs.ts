import type { Hex32 } from "@augur/scorer";
import type { Kysely } from "kysely";
import { anchoredRegistrations } from "../store/queries/agents";
import { seasonRetirements } from "../store/queries/retirements";
import { latestAnchoredScores } from "../store/queries/scores";
import { findSeason, seasonClosesAt } from "../store/queries/seasons";
import type { Database } from "../store/schema";
import type { SeasonRows } from "../store/season-rows";
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
  const row = await findSeason(db, seasonId);
  if (!row) throw new Error(`season ${seasonId} is not in the store`);
  const agents = await anchoredRegistrations(db, seasonId, anchoredSize);
  const creators = [...new Set(agents.map((a) => a.creator))];
  // Anchored retirements in force at as-of: those agents are not their creator's active agents.
  const retired = await seasonRetirements(db, seasonId, anchoredSize);
  return {
    seasonId,
    season: { startsAt: row.starts_at, endsAt: seasonClosesAt(row) },
    asOf,
    agents: agents.map((a) => ({
      agentId: a.id,
      creator: a.creator,
      style: a.style,
      registrationSeal: a.registration_seal as Hex32,
      ...(retired.has(a.id) && retired.get(a.id)! <= asOf ? { retiredAt: retired.get(a.id)! } : {}),
    })),
    priorScores: creators.length === 0 ? [] : await priorScores(db, creators, anchoredSize),
    inputsLogSize: anchoredSize,
  };
}

/** The header's agents, in its order, each with its records from `rows`. */
export function* agentInputs(header: SeasonHeader, rows: SeasonRows): Generator<AgentInputs> {
  for (const agent of header.agents) yield { ...agent, records: rows.of(agent.agentId) };
}

/** The latest anchored score of every agent of `creators`, any season, as creator inputs. */
async function priorScores(
  db: Kysely<Database>,
  creators: string[],
  anchoredSize: number,
): Promise<PriorScore[]> {
  const rows = await latestAnchoredScores(db, creators, anchoredSize);
  return rows.map((r) => ({
    agentId: r.agent_id,
    seasonId: r.season_id,
    creator: r.creator,
    asOf: r.as_of,
    seal: r.seal as Hex32,
    terms: JSON.parse(r.terms) as Record<string, unknown>,
  }));
}
