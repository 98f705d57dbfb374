import {
  AugurError,
  SeasonScorer,
  seal as sealOf,
  validateSeasonInput,
  type UnrankedRow,
} from "@augur/scorer";
import { formatUnits } from "ethers";
import type { AgentInputs, Scorer, SealedInput, SeasonHeader, SeasonScoring } from "./seams";

/** The scorer sealed a manifest differently from the engine: storing it would break verification. */
export class ManifestSealMismatchError extends AugurError {
  override readonly name = "ManifestSealMismatchError";
  constructor(agentId: string, scorerSeal: string, engineSeal: string) {
    super(
      "MANIFEST_SEAL_MISMATCH",
      `manifest of ${agentId}: scorer seal ${scorerSeal} ≠ engine seal ${engineSeal}`,
      {
        agentId,
        scorerSeal,
        engineSeal,
      },
    );
  }
}

const DECIDER: Readonly<Record<string, "agent" | "protective_exit" | "system_hold">> = {
  decider: "agent",
  "protective-exit": "protective_exit",
  "system-hold": "system_hold",
};

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

type Message = Record<string, string | number>;
const messageOf = (r: SealedInput) => (r.body as { message: Message }).message;

/**
 * augur-score/v1 behind the cycle's Scorer seam. The engine only translates units and names
 * (base units → decimal strings, basis points → fractions, unix seconds → ISO times); every
 * number of the score is decided by packages/scorer's `SeasonScorer`. Snapshots carry their
 * record seals, so a manifest names exactly the seals that sit in the anchored log. Each agent's
 * rows pass the scorer's own input validation (one agent at a time, so memory stays flat).
 *
 * Call records (written by the chain indexer) are read as `{ resolvedAt, confidenceBps, outcome }`.
 */
export class AugurScorer implements Scorer {
  openSeason(header: SeasonHeader): SeasonScoring {
    const season = {
      id: header.seasonId,
      start: iso(header.season.startsAt),
      end: iso(header.season.endsAt),
    };
    const asOf = iso(header.asOf);
    const agents = header.agents.map((a) => ({
      id: a.agentId,
      creator: a.creator,
      style: a.style,
      active: true,
    }));
    const priorScores = header.priorScores
      .filter((p) => typeof p.terms.performance === "number")
      .map((p) => ({
        agent: p.agentId,
        season_id: p.seasonId,
        performance: p.terms.performance as number,
        seal: p.seal,
        sealed_at: iso(p.asOf),
      }));
    const validHeader = validateSeasonInput({
      ...emptyRows(),
      season,
      as_of: asOf,
      agents,
      prior_scores: priorScores,
    });
    const scorer = new SeasonScorer(validHeader);
    const byId = new Map(agents.map((a) => [a.id, a]));
    const rows: UnrankedRow[] = [];
    return {
      scoreAgent(agent: AgentInputs) {
        const own = validateSeasonInput({
          ...agentRows(agent),
          season,
          as_of: asOf,
          agents: [byId.get(agent.agentId)],
          prior_scores: [],
        });
        rows.push(scorer.scoreAgent(agent.agentId, own));
      },
      finish() {
        const scored = scorer.result(rows);
        return scored.rows.map((row) => {
          const engineSeal = sealOf(row.manifest);
          if (engineSeal !== row.seal)
            throw new ManifestSealMismatchError(row.agent_id, row.seal, engineSeal);
          return {
            agentId: row.agent_id,
            formula: scored.formula,
            score: row.score,
            reason: row.reason,
            rank: row.rank,
            terms: row.terms,
            manifest: row.manifest as unknown as Record<string, unknown>,
          };
        });
      },
    };
  }
}

function emptyRows() {
  return { snapshots: [], decisions: [], trades: [], calls: [] };
}

/** One agent's records in the scorer's input vocabulary. */
function agentRows(agent: AgentInputs) {
  const rows = { snapshots: [], decisions: [], trades: [], calls: [] } as Record<
    "snapshots" | "decisions" | "trades" | "calls",
    Record<string, unknown>[]
  >;
  for (const record of agent.records) {
    if (record.kind === "call") {
      const call = record.body as { resolvedAt: number; confidenceBps: number; outcome: string };
      rows.calls.push({
        agent: agent.agentId,
        resolved_at: iso(call.resolvedAt),
        confidence: call.confidenceBps / 10_000,
        outcome: call.outcome,
      });
      continue;
    }
    const m = messageOf(record);
    if (record.kind === "snapshot") {
      rows.snapshots.push({
        agent: agent.agentId,
        at: iso(m.takenAt as number),
        nav: formatUnits(m.nav as string, 6),
        flow: formatUnits(m.flow as string, 6),
        invested: (m.investedBps as number) / 10_000,
        seal: record.seal,
      });
    } else if (record.kind === "decision") {
      rows.decisions.push({
        agent: agent.agentId,
        at: iso(m.decidedAt as number),
        decider: DECIDER[m.source as string],
        asset: m.asset,
        action: m.action,
      });
    } else if (record.kind === "trade") {
      rows.trades.push({
        agent: agent.agentId,
        at: iso(m.executedAt as number),
        asset: m.asset,
        side: m.side,
        quantity: m.quantity,
        price: formatUnits(m.price as string, 18),
      });
    }
  }
  return rows;
}
