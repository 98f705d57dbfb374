import {
  AugurError,
  scoreSeason,
  seal as sealOf,
  validateSeasonInput,
  type Hex32,
  type SeasonInput,
} from "@augur/scorer";
import { formatUnits } from "ethers";
import type { SeasonBounds, Scorer, ScoreOutcome, SealedInput, SeasonScoringInput } from "./seams";

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
 * number of the score is decided by `scoreSeason` in packages/scorer. Snapshots carry their
 * record seals, so a manifest names exactly the seals that sit in the anchored log.
 *
 * Call records (written by the chain indexer) are read as `{ resolvedAt, confidenceBps, outcome }`.
 */
export class AugurScorer implements Scorer {
  scoreSeason(input: SeasonScoringInput): readonly ScoreOutcome[] {
    const scored = scoreSeason(validateSeasonInput(toSeasonInput(input)));
    return scored.rows.map((row) => {
      const engineSeal = sealOf(row.manifest);
      if (engineSeal !== row.seal) throw new ManifestSealMismatchError(row.agent_id, row.seal, engineSeal);
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
  }
}

function toSeasonInput(input: SeasonScoringInput): SeasonInput {
  const snapshots: Record<string, unknown>[] = [];
  const decisions: Record<string, unknown>[] = [];
  const trades: Record<string, unknown>[] = [];
  const calls: Record<string, unknown>[] = [];
  for (const agent of input.agents) {
    for (const record of agent.records) {
      if (record.kind === "call") {
        const call = record.body as { resolvedAt: number; confidenceBps: number; outcome: string };
        calls.push({
          agent: agent.agentId,
          resolved_at: iso(call.resolvedAt),
          confidence: call.confidenceBps / 10_000,
          outcome: call.outcome,
        });
        continue;
      }
      const m = messageOf(record);
      if (record.kind === "snapshot") {
        snapshots.push({
          agent: agent.agentId,
          at: iso(m.takenAt as number),
          nav: formatUnits(m.nav as string, 6),
          flow: formatUnits(m.flow as string, 6),
          invested: (m.investedBps as number) / 10_000,
          seal: record.seal,
        });
      } else if (record.kind === "decision") {
        decisions.push({
          agent: agent.agentId,
          at: iso(m.decidedAt as number),
          decider: DECIDER[m.source as string],
          asset: m.asset,
          action: m.action,
        });
      } else if (record.kind === "trade") {
        trades.push({
          agent: agent.agentId,
          at: iso(m.executedAt as number),
          asset: m.asset,
          side: m.side,
          quantity: m.quantity,
          price: formatUnits(m.price as string, 18),
        });
      }
    }
  }
  const season: SeasonBounds = input.season;
  const raw = {
    season: { id: input.seasonId, start: iso(season.startsAt), end: iso(season.endsAt) },
    as_of: iso(input.asOf),
    agents: input.agents.map((a) => ({ id: a.agentId, creator: a.creator, style: a.style, active: true })),
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
        seal: p.seal as Hex32,
        sealed_at: iso(p.asOf),
      })),
  };
  return raw as unknown as SeasonInput;
}
