/**
 * A call is sealed three times as it happens, each a `call` record written by the engine's chain
 * indexer: its commit (`augur-call-commit/v1`), its reveal (`augur-call-reveal/v1`) and its outcome
 * (`augur-call/v1`, the only format older stores hold). Each goes into the season the call closes
 * in (an unrevealed commit: the season its reveal deadline falls in). Readers keep, per call, the
 * furthest phase (`latestPerCall`): resolved over revealed over committed.
 */
export const CALL_FORMATS = {
  committed: "augur-call-commit/v1",
  revealed: "augur-call-reveal/v1",
  resolved: "augur-call/v1",
} as const;
export type CallPhase = keyof typeof CALL_FORMATS;

/** What every phase's body names: the call and the agent it belongs to in that season. */
interface CallRecordHead {
  readonly chainId: number;
  readonly ledger: string;
  readonly callId: string;
  readonly agent: string;
  readonly agentId: string;
  readonly seasonId: string;
}

/** A commit, sealed when it is confirmed: the call exists, its terms are still hidden. */
export interface CallCommitBody extends CallRecordHead {
  readonly format: "augur-call-commit/v1";
  /** Block time of the commit, and the last second it may be revealed (committedAt + revealTimeout). */
  readonly committedAt: number;
  readonly revealDeadline: number;
  readonly commitTx: string;
}

/** A reveal, sealed when it is confirmed: the call is open until `reveal.closesAt`. */
export interface CallRevealBody extends CallRecordHead {
  readonly format: "augur-call-reveal/v1";
  readonly confidenceBps: number;
  readonly reveal: Readonly<Record<string, string | number>>;
}

/** The sealed body of one resolved call (`augur-call/v1`, written by the engine's chain indexer). */
export interface CallRecordBody {
  readonly format: "augur-call/v1";
  readonly chainId: number;
  readonly ledger: string;
  readonly callId: string;
  readonly agent: string;
  readonly agentId: string;
  readonly seasonId: string;
  readonly outcome: "hit" | "miss" | "void";
  readonly confidenceBps: number;
  /** Block time of the Settled / Expired event, unix seconds. */
  readonly resolvedAt: number;
  readonly resolveTx: string;
  readonly reveal: Readonly<Record<string, string | number>> | null;
  readonly exitPrice: string | null;
}

/** What a sealed call record (`augur-call/v1`, written by the chain indexer) says, in plain numbers. */
export interface CallTerms {
  readonly callId: string;
  /** False for a commit (open or expired): never revealed, so no asset, window or direction is known. */
  readonly revealed: boolean;
  /** The stock token, lowercase ("" when not revealed). */
  readonly asset: string;
  /** Seconds (0 when not revealed). */
  readonly window: number;
  readonly direction: "up" | "down";
  readonly confidenceBps: number;
  /**
   * The reveal's block time: `closesAt - window`, exact, since CallLedger sets
   * `closesAt = block.timestamp + window` at the reveal. The resolution time when not revealed.
   */
  readonly revealedAt: number;
  readonly closesAt: number;
  /** Block time of the resolution; for an open call, when it becomes resolvable (= closesAt). */
  readonly resolvedAt: number;
  /** 18-decimal prices as decimal strings, null when unknown. */
  readonly entryPrice: string | null;
  readonly exitPrice: string | null;
  /** "open" until the call's outcome is sealed. */
  readonly outcome: CallRecordBody["outcome"] | "open";
  readonly phase: CallPhase;
}

type Fields = Record<string, unknown>;

/** Which phase a stored call body records (a body with no known format is an outcome, as v1 wrote). */
export function callPhase(m: Fields): CallPhase {
  if (m.format === CALL_FORMATS.committed) return "committed";
  if (m.format === CALL_FORMATS.revealed) return "revealed";
  return "resolved";
}

const PHASE_RANK: Record<CallPhase, number> = { committed: 0, revealed: 1, resolved: 2 };

/**
 * One row per call (chain, ledger, agent, call id): the one recording its furthest phase, in the
 * order the calls first appear.
 * `body` reads a row's stored body.
 */
export function latestPerCall<T>(rows: readonly T[], body: (row: T) => string | object): T[] {
  const best = new Map<string, { row: T; rank: number }>();
  for (const row of rows) {
    const b = body(row);
    const m = (typeof b === "string" ? JSON.parse(b) : b) as Fields;
    // CallLedger's ids already name the agent; the key names it anyway, and the chain and ledger.
    const id = [m.chainId, m.ledger, m.agent, m.callId].map(String).join("|");
    const rank = PHASE_RANK[callPhase(m)];
    const seen = best.get(id);
    if (!seen) best.set(id, { row, rank });
    else if (rank > seen.rank) Object.assign(seen, { row, rank });
  }
  return [...best.values()].map((b) => b.row);
}

/** Reads a stored call record's body (its sealed JSON text or the parsed object), any phase. */
export function callTerms(body: string | object): CallTerms {
  const m = (typeof body === "string" ? JSON.parse(body) : body) as Fields;
  const phase = callPhase(m);
  const reveal = m.reveal !== null && typeof m.reveal === "object" ? (m.reveal as Fields) : undefined;
  const window = reveal ? Number(reveal.window) : 0;
  // An open call is resolvable from its close (an open commit: from its reveal deadline) on.
  const closesAt = reveal
    ? Number(reveal.closesAt)
    : Number(phase === "committed" ? m.revealDeadline : m.resolvedAt);
  const resolvedAt = phase === "resolved" ? Number(m.resolvedAt) : closesAt;
  const outcome =
    phase !== "resolved" ? "open" : m.outcome === "hit" || m.outcome === "void" ? m.outcome : "miss";
  return {
    callId: String(m.callId ?? ""),
    revealed: reveal !== undefined,
    asset: reveal ? String(reveal.asset).toLowerCase() : "",
    window,
    direction: reveal?.direction === "down" ? "down" : "up",
    confidenceBps: Number(m.confidenceBps ?? 0), // an open commit's is not known yet
    revealedAt: closesAt - window,
    closesAt,
    resolvedAt,
    entryPrice: reveal && reveal.entryPrice != null ? String(reveal.entryPrice) : null,
    exitPrice: m.exitPrice == null ? null : String(m.exitPrice),
    outcome,
    phase,
  };
}
