import {
  AugurError,
  InvalidInputError,
  SeasonScorer,
  type InvalidInputNote,
  type SeasonInput,
  sealedManifest,
  validateSeasonInput,
  type UnrankedRow,
} from "@augur/scorer";
import { DECIDER_OF_SOURCE, usdgDecimal } from "@augur/records";
import { formatUnits } from "ethers";
import { NO_RECORDS, PartialRecordsError, type RecordCounts } from "../store/agent-records";
import type { AgentInputs, Scorer, SeasonHeader, SeasonScoring } from "./seams";

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

// Every agent's snapshots fall on the same hours: each time is formatted once, not once per row.
// Bounded, so a season of scattered times cannot grow it without limit.
const isoTimes = new Map<number, string>();
const ISO_TIMES_LIMIT = 1 << 16;
function iso(seconds: number): string {
  let text = isoTimes.get(seconds);
  if (text === undefined) {
    text = new Date(seconds * 1000).toISOString();
    if (isoTimes.size >= ISO_TIMES_LIMIT) isoTimes.clear();
    isoTimes.set(seconds, text);
  }
  return text;
}

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
  openSeason(header: SeasonHeader): AugurSeasonScoring {
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
      // "the creator's other active agents": a retired agent is not one of them.
      active: a.retiredAt === undefined,
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
      inputs_log_size: header.inputsLogSize ?? null,
    });
    const scorer = new SeasonScorer(validHeader);
    const byId = new Map(agents.map((a) => [a.id, a]));
    const rows: UnrankedRow[] = [];
    const validate = (agentId: string, own: ReturnType<typeof agentRows>) =>
      validateSeasonInput({ ...own, season, as_of: asOf, agents: [byId.get(agentId)], prior_scores: [] });
    const rowOf = (agent: AgentInputs): UnrankedRow => {
      // Scoring from scratch needs every record: rows that start later would score another season.
      if (!agent.records.complete) throw new PartialRecordsError(agent.agentId);
      agent.records.claim("score", NO_RECORDS); // and again next hour: the row cache keeps them
      try {
        return scorer.scoreAgent(agent.agentId, validate(agent.agentId, agentRows(agent)));
      } catch (error) {
        // Isolation: one agent's unscorable record costs that agent its score, nobody else's.
        return scorer.refuseAgent(agent.agentId, invalidInput(agent, error));
      }
    };
    return {
      scorer,
      validate,
      rowOf,
      add: (row) => rows.push(row),
      scoreAgent: (agent) => rows.push(rowOf(agent)),
      finish() {
        const scored = scorer.result(rows);
        // The manifest's text is the one its seal was taken of, stored as is; the seal is checked where it is stored.
        return scored.rows.map((row) => ({
          agentId: row.agent_id,
          formula: scored.formula,
          score: row.score,
          reason: row.reason,
          rank: row.rank,
          terms: row.terms,
          manifest: row.manifest as unknown as Record<string, unknown>,
          sealed: { text: sealedManifest(row.manifest).text, seal: row.seal },
        }));
      },
    };
  }
}

/** A season opened by AugurScorer, with its parts for a scorer built on it (the incremental one). */
export interface AugurSeasonScoring extends SeasonScoring {
  readonly scorer: SeasonScorer;
  /** Rows in the scorer's vocabulary, validated as the scorer's input (throws InvalidInputError). */
  validate(agentId: string, rows: ReturnType<typeof agentRows>): SeasonInput;
  /** The agent's row from scratch; an agent whose records cannot be scored gets its `invalid_input` row. */
  rowOf(agent: AgentInputs): UnrankedRow;
  /** Adds a row made elsewhere to those `finish` ranks. */
  add(row: UnrankedRow): void;
}

export { NO_RECORDS, type RecordCounts };

const ROW_KIND = { snapshots: "snapshot", decisions: "decision", trades: "trade", calls: "call" } as const;

/** What the manifest of an `invalid_input` row says: the refused record's seal, field and problem. */
function invalidInput(agent: AgentInputs, error: unknown): InvalidInputNote {
  if (!(error instanceof InvalidInputError)) {
    const problem = error instanceof Error ? error.message : String(error);
    return { seal: null, path: "$", problem };
  }
  const at = /^(snapshots|decisions|trades|calls)\[(\d+)\]/.exec(error.path);
  const seal = at ? agent.records.sealOf(ROW_KIND[at[1] as keyof typeof ROW_KIND], Number(at[2])) : undefined;
  return { seal: seal ?? null, path: error.path, problem: error.shortMessage.slice(error.path.length + 2) };
}

function emptyRows() {
  return { snapshots: [], decisions: [], trades: [], calls: [] };
}

/**
 * One agent's records in the scorer's input vocabulary (those after `from`, each kind in log order). NAV and flow go in as USDG numbers (the
 * scorer reads a decimal string and a number alike, `decimalValue`), exact because the row
 * holds base-unit integers of at most 15 digits as exact-rounded USDG; any other stored amount
 * goes in as the exact decimal of its stored string at its snapshot's own USDG decimals.
 */
export function agentRows(agent: AgentInputs, from: RecordCounts = NO_RECORDS) {
  const { snapshots: s, decisions, trades, calls, decisionSeals, tradeSeals, callSeals } = agent.records;
  const id = agent.agentId;
  const snapshots = new Array<Record<string, unknown>>(s.length - from.snapshots);
  for (let i = from.snapshots; i < s.length; i++) {
    const raw = s.raw(i);
    snapshots[i - from.snapshots] = {
      agent: id,
      at: iso(s.at[i]!),
      nav: raw ? usdgDecimal(raw.nav as string, raw.usdgDecimals) : s.nav[i],
      flow: raw ? usdgDecimal(raw.flow as string, raw.usdgDecimals) : s.flow[i],
      invested: s.invested[i],
      seal: s.seal(i),
    };
  }
  return {
    snapshots,
    decisions: decisions.slice(from.decisions).map((d, k) => ({
      agent: id,
      seal: decisionSeals.at(from.decisions + k),
      at: iso(d.decidedAt),
      decider: DECIDER_OF_SOURCE[d.source],
      asset: d.asset,
      action: d.action,
    })),
    trades: trades.slice(from.trades).map((t, k) => ({
      agent: id,
      seal: tradeSeals.at(from.trades + k),
      at: iso(t.executedAt),
      asset: t.asset,
      side: t.side,
      quantity: t.quantity,
      price: formatUnits(t.price, 18),
    })),
    calls: calls.slice(from.calls).map((c, k) => ({
      agent: id,
      seal: callSeals.at(from.calls + k),
      resolved_at: iso(c.resolvedAt),
      confidence: c.confidenceBps / 10_000,
      outcome: c.outcome,
    })),
  };
}
