import { scoreSeason, type SeasonInput, type Style } from "@augur/scorer";
import type { ScoreOutcome, Scorer, SeasonScoringInput } from "../cycle/seams";

/**
 * A test seam until the engine wires `@augur/scorer` into the cycle: maps the cycle's loaded
 * inputs (signed record bodies in base units) to the scorer's season input and back. The site's
 * fixture scores through `runCycle` with it, so pages show real manifests and seals.
 */
type Fields = Record<string, unknown>;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace(".000Z", "Z");
const msg = (body: unknown): Fields => ((body as Fields).message as Fields | undefined) ?? (body as Fields);
const DECIDERS: Record<string, "agent" | "protective_exit" | "system_hold"> = {
  decider: "agent",
  "protective-exit": "protective_exit",
  "system-hold": "system_hold",
};

export function seasonInputOf(
  input: SeasonScoringInput,
  season: { start: number; end: number },
): SeasonInput {
  const snapshots: SeasonInput["snapshots"][number][] = [];
  const decisions: SeasonInput["decisions"][number][] = [];
  const trades: SeasonInput["trades"][number][] = [];
  const calls: SeasonInput["calls"][number][] = [];
  for (const agent of input.agents) {
    for (const r of agent.records) {
      const m = msg(r.body);
      if (r.kind === "snapshot") {
        const nav = Number(m.nav) / 1e6;
        snapshots.push({
          agent: agent.agentId,
          at: iso(Number(m.takenAt)),
          nav,
          flow: Number(m.flow) / 1e6,
          invested: nav > 0 ? Math.min(1, Number(m.invested) / 1e6 / nav) : 0,
          seal: r.seal,
        });
      } else if (r.kind === "decision") {
        decisions.push({
          agent: agent.agentId,
          at: iso(Number(m.decidedAt)),
          decider: DECIDERS[String(m.source)] ?? "system_hold",
          asset: String(m.asset),
          action: String(m.action),
        });
      } else if (r.kind === "trade") {
        trades.push({
          agent: agent.agentId,
          at: iso(Number(m.executedAt)),
          asset: String(m.asset),
          side: m.side === "sell" ? "sell" : "buy",
          quantity: Number(m.quantity) / 1e18,
          price: Number(m.price) / 1e18,
        });
      } else if (r.kind === "call" && (m.outcome === "hit" || m.outcome === "miss" || m.outcome === "void")) {
        calls.push({
          agent: agent.agentId,
          resolved_at: iso(Number(m.closesAt)),
          confidence: Number(m.confidenceBps) / 10_000,
          outcome: m.outcome,
        });
      }
    }
  }
  return {
    season: { id: input.seasonId, start: iso(season.start), end: iso(season.end) },
    as_of: iso(input.asOf),
    agents: input.agents.map((a) => ({
      id: a.agentId,
      creator: a.creator,
      style: a.style as Style,
      active: true,
    })),
    snapshots,
    decisions,
    trades,
    calls,
    prior_scores: input.priorScores
      .filter((p) => typeof p.terms.performance === "number")
      .map((p) => ({
        agent: p.agentId,
        season_id: p.seasonId,
        performance: p.terms.performance as number,
        seal: p.seal,
        sealed_at: iso(p.asOf),
      })),
  };
}

export function testScorer(seasons: Record<string, { start: number; end: number }>): Scorer {
  return {
    scoreSeason(input): ScoreOutcome[] {
      const season = seasons[input.seasonId]!;
      return scoreSeason(seasonInputOf(input, season)).rows.map((row) => ({
        agentId: row.agent_id,
        formula: row.manifest.formula.version,
        score: row.score,
        reason: row.reason,
        rank: row.rank,
        terms: row.terms,
        manifest: row.manifest as unknown as Record<string, unknown>,
      }));
    },
  };
}
