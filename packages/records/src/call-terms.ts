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
  /** False for an expired call: never revealed, so no asset, window or direction is known. */
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
  readonly resolvedAt: number;
  /** 18-decimal prices as decimal strings, null when unknown. */
  readonly entryPrice: string | null;
  readonly exitPrice: string | null;
  readonly outcome: CallRecordBody["outcome"];
}

type Fields = Record<string, unknown>;

/** Reads a stored call record's body (its sealed JSON text or the parsed object). */
export function callTerms(body: string | object): CallTerms {
  const m = (typeof body === "string" ? JSON.parse(body) : body) as Fields;
  const reveal = m.reveal !== null && typeof m.reveal === "object" ? (m.reveal as Fields) : undefined;
  const resolvedAt = Number(m.resolvedAt);
  const window = reveal ? Number(reveal.window) : 0;
  const closesAt = reveal ? Number(reveal.closesAt) : resolvedAt;
  const outcome = m.outcome === "hit" || m.outcome === "void" ? m.outcome : "miss";
  return {
    callId: String(m.callId ?? ""),
    revealed: reveal !== undefined,
    asset: reveal ? String(reveal.asset).toLowerCase() : "",
    window,
    direction: reveal?.direction === "down" ? "down" : "up",
    confidenceBps: Number(m.confidenceBps),
    revealedAt: closesAt - window,
    closesAt,
    resolvedAt,
    entryPrice: reveal && reveal.entryPrice != null ? String(reveal.entryPrice) : null,
    exitPrice: m.exitPrice == null ? null : String(m.exitPrice),
    outcome,
  };
}
