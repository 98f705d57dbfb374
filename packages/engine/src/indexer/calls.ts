import { CALL_FORMATS, type CallCommitBody, type CallRecordBody, type CallRevealBody } from "@augur/records";
import type { Log } from "ethers";
import type { Kysely } from "kysely";
import { currentMode } from "../modes/state";
import { isFinalMode } from "../modes/timeline";
import { appendEngineRecords } from "../store/append";
import type { Store } from "../store/open";
import { agentOfKeyAt } from "../store/queries/agents";
import { markEventSealed, revealedPayload, unsealedCallEvents, type CallEvent } from "../store/queries/calls";
import type { Database } from "../store/schema";
import type { LogPlace, Source } from "./blocks";
import { callLedger, DIRECTIONS, OUTCOMES } from "../chain/abi/call-ledger";
import { EventTableHandler, type EventRow } from "./event-table";

/**
 * Expired calls were never revealed, so their stated confidence is unknown. They count as misses
 * on chain; for calibration they count as a miss stated with full confidence, so hiding a losing
 * call can never improve an agent's Brier score.
 */
export const EXPIRED_CONFIDENCE_BPS = 10_000;

/** CallLedger's reveal timeout at deployment, seconds (contracts/CallLedger.sol constructor). */
export const LAUNCH_REVEAL_TIMEOUT = 3600;

/** The commit time CallLedger packs into a call id's low 64 bits. */
export const committedAtOf = (callId: string) => Number(BigInt(callId) & 0xffff_ffff_ffff_ffffn);

const text = (v: unknown) => (v as bigint | string).toString().toLowerCase();

/**
 * CallLedger's events: Committed/Revealed/Settled/Expired kept as seen in `call_events` (the
 * settler reads the open calls there), Consensus in
 * `consensus_rounds` (both rolled back on reorg); once a resolution is confirmed and its agent is
 * registered in the season the call closes in, it is sealed as a `call` record through the engine's
 * record path, so calibration scores only anchored, provable calls.
 */
export class CallLedgerEvents extends EventTableHandler {
  readonly topics = ["Committed", "Revealed", "Settled", "Expired", "Consensus"].map(
    (n) => callLedger.getEvent(n)!.topicHash,
  );
  protected readonly tables = ["call_events", "consensus_rounds"] as const;
  protected readonly final = "call records";

  /**
   * @param revealTimeout the ledger's reveal timeout now (an expired commit belongs to the season
   * its deadline, committedAt + timeout, falls in); default: the launch value, one hour.
   */
  constructor(
    source: Source,
    confirmations: number,
    private readonly now: () => number,
    private readonly revealTimeout: () => Promise<number> = async () => LAUNCH_REVEAL_TIMEOUT,
  ) {
    super(source, confirmations);
  }

  protected rowsOf(entry: Log, at: LogPlace): EventRow[] {
    const parsed = callLedger.parseLog(entry);
    if (!parsed) return [];
    const a = parsed.args;
    if (parsed.name === "Consensus") {
      const direction = DIRECTIONS[Number(a.getValue("direction"))];
      if (!direction) return [];
      const row = {
        asset: text(a.getValue("asset")),
        window_seconds: Number(a.getValue("window")),
        bucket: Number(a.getValue("bucket")),
        direction,
        strength_bps: Number(a.getValue("strengthBps")),
        voters: Number(a.getValue("voters")),
        up_weight: text(a.getValue("upWeight")),
        down_weight: text(a.getValue("downWeight")),
        ...at,
      };
      return [{ table: "consensus_rounds", row }];
    }
    let kind: CallEvent["kind"];
    let payload: Record<string, string | number | null>;
    if (parsed.name === "Committed") {
      kind = "committed";
      payload = { committedAt: Number(a.getValue("committedAt")) };
    } else if (parsed.name === "Revealed") {
      kind = "revealed";
      payload = {
        asset: text(a.getValue("asset")),
        window: Number(a.getValue("window")),
        direction: DIRECTIONS[Number(a.getValue("direction"))] ?? null,
        confidenceBps: Number(a.getValue("confidenceBps")),
        entryPrice: text(a.getValue("entryPrice")),
        closesAt: Number(a.getValue("closesAt")),
        vote: text(a.getValue("vote")),
        revealTx: at.tx_hash,
      };
    } else if (parsed.name === "Settled") {
      kind = "settled";
      payload = {
        outcome: OUTCOMES[Number(a.getValue("outcome"))] ?? null,
        exitPrice: text(a.getValue("exitPrice")),
      };
    } else {
      kind = "expired";
      payload = {};
    }
    const row = {
      chain_id: this.source.chainId,
      ledger: this.source.address,
      kind,
      call_id: text(a.getValue("callId")),
      agent: text(a.getValue("agent")),
      payload: JSON.stringify(payload),
      record_seal: null,
      ...at,
    };
    return [{ table: "call_events", row }];
  }

  /**
   * Seals every confirmed commit, reveal and resolution whose agent is registered in the season
   * the call closes in, in chain order; returns how many were sealed.
   */
  override async promote(store: Store, through: number): Promise<number> {
    const db = store.db;
    // Once winding down the log only closes: no new record joins it (docs/stewardship.md).
    if (isFinalMode((await currentMode(db)).mode)) return 0;
    const events = await unsealedCallEvents(db, this.source, through);
    let sealed = 0;
    for (const r of events) {
      const body =
        r.kind === "committed" || r.kind === "revealed"
          ? await this.openRecordOf(db, r)
          : await this.recordOf(db, r);
      if (!body) continue; // no reveal seen (before the start block) or agent not registered: not ours
      await db.transaction().execute(async (trx) => {
        const [stored] = await appendEngineRecords(
          trx,
          [{ kind: "call", agentId: body.agentId, seasonId: body.seasonId, body }],
          this.now(),
        );
        await markEventSealed(trx, r, stored!.seal);
      });
      sealed++;
    }
    return sealed;
  }

  /** The record of a commit (in the season its reveal deadline falls in) or of a reveal (closesAt's). */
  private async openRecordOf(
    db: Kysely<Database>,
    r: Pick<CallEvent, "kind" | "call_id" | "agent" | "payload" | "tx_hash">,
  ): Promise<CallCommitBody | CallRevealBody | undefined> {
    const payload = JSON.parse(r.payload) as Record<string, string | number>;
    const head = {
      chainId: this.source.chainId,
      ledger: this.source.address,
      callId: r.call_id,
      agent: r.agent,
    };
    if (r.kind === "committed") {
      const committedAt = Number(payload.committedAt);
      const revealDeadline = committedAt + (await this.revealTimeout());
      const agent = await agentOfKeyAt(db, r.agent, revealDeadline);
      if (!agent) return undefined;
      const at = { agentId: agent.id, seasonId: agent.season_id };
      return {
        format: CALL_FORMATS.committed,
        ...head,
        ...at,
        committedAt,
        revealDeadline,
        commitTx: r.tx_hash,
      };
    }
    const agent = await agentOfKeyAt(db, r.agent, Number(payload.closesAt));
    if (!agent) return undefined;
    const at = { agentId: agent.id, seasonId: agent.season_id };
    return {
      format: CALL_FORMATS.revealed,
      ...head,
      ...at,
      confidenceBps: Number(payload.confidenceBps),
      reveal: payload,
    };
  }

  private async recordOf(
    db: Kysely<Database>,
    r: Pick<CallEvent, "kind" | "call_id" | "agent" | "payload" | "block_timestamp" | "tx_hash">,
  ): Promise<CallRecordBody | undefined> {
    const resolvedAt = r.block_timestamp;
    let reveal: Record<string, string | number> | null = null;
    let confidenceBps = EXPIRED_CONFIDENCE_BPS;
    let outcome: CallRecordBody["outcome"] = "miss";
    let exitPrice: string | null = null;
    // The call's season is the one it closes in (an expired commit: its reveal deadline), never
    // the one somebody got round to settling it in: a late settle cannot move a call out.
    let closesAt = committedAtOf(r.call_id) + (await this.revealTimeout());
    if (r.kind === "settled") {
      const revealed = await revealedPayload(db, this.source, r.call_id);
      if (!revealed) return undefined;
      reveal = JSON.parse(revealed) as Record<string, string | number>;
      const settled = JSON.parse(r.payload) as {
        outcome: CallRecordBody["outcome"] | null;
        exitPrice: string;
      };
      if (!settled.outcome) return undefined;
      confidenceBps = Number(reveal.confidenceBps);
      outcome = settled.outcome;
      exitPrice = settled.exitPrice;
      closesAt = Number(reveal.closesAt);
    }
    const agent = await agentOfKeyAt(db, r.agent, closesAt);
    if (!agent) return undefined;
    return {
      format: "augur-call/v1",
      chainId: this.source.chainId,
      ledger: this.source.address,
      callId: r.call_id,
      agent: r.agent,
      agentId: agent.id,
      seasonId: agent.season_id,
      outcome,
      confidenceBps,
      resolvedAt,
      resolveTx: r.tx_hash,
      reveal,
      exitPrice,
    };
  }
}
