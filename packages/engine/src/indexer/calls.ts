import type { CallRecordBody } from "@augur/records";
import type { Log } from "ethers";
import type { Kysely } from "kysely";
import { appendEngineRecords } from "../records/append";
import { currentMode } from "../modes/state";
import { isFinalMode } from "../modes/timeline";
import type { Store } from "../store/open";
import type { Database } from "../store/schema";
import { logPlace, type Source } from "./blocks";
import { callLedger, DIRECTIONS, OUTCOMES } from "../chain/abi/call-ledger";
import { ReorgTooDeepError } from "./errors";
import type { EventHandler } from "./follow";

/**
 * Expired calls were never revealed, so their stated confidence is unknown. They count as misses
 * on chain; for calibration they count as a miss stated with full confidence, so hiding a losing
 * call can never improve an agent's Brier score.
 */
export const EXPIRED_CONFIDENCE_BPS = 10_000;

const text = (v: unknown) => (v as bigint | string).toString().toLowerCase();

/**
 * CallLedger's events: Revealed/Settled/Expired kept as seen in `call_events`, Consensus in
 * `consensus_rounds` (both rolled back on reorg); once a resolution is confirmed and its agent is
 * registered in the season it resolved in, it is sealed as a `call` record through the engine's
 * record path, so calibration scores only anchored, provable calls.
 */
export class CallLedgerEvents implements EventHandler {
  readonly topics = ["Revealed", "Settled", "Expired", "Consensus"].map(
    (n) => callLedger.getEvent(n)!.topicHash,
  );

  constructor(
    private readonly source: Source,
    private readonly confirmations: number,
    private readonly now: () => number,
  ) {}

  async store(
    trx: Kysely<Database>,
    logs: readonly Log[],
    timestamps: ReadonlyMap<string, number>,
  ): Promise<number> {
    let fresh = 0;
    for (const entry of logs) {
      const parsed = callLedger.parseLog(entry);
      if (!parsed) continue;
      const a = parsed.args;
      const at = logPlace(entry, timestamps);
      if (parsed.name === "Consensus") {
        const direction = DIRECTIONS[Number(a.getValue("direction"))];
        if (!direction) continue;
        const result = await trx
          .insertInto("consensus_rounds")
          .values({
            asset: text(a.getValue("asset")),
            window_seconds: Number(a.getValue("window")),
            bucket: Number(a.getValue("bucket")),
            direction,
            strength_bps: Number(a.getValue("strengthBps")),
            voters: Number(a.getValue("voters")),
            up_weight: text(a.getValue("upWeight")),
            down_weight: text(a.getValue("downWeight")),
            ...at,
          })
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst();
        fresh += Number(result.numInsertedOrUpdatedRows ?? 0n);
        continue;
      }
      let kind: "revealed" | "settled" | "expired";
      let payload: Record<string, string | number | null>;
      if (parsed.name === "Revealed") {
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
      const result = await trx
        .insertInto("call_events")
        .values({
          chain_id: this.source.chainId,
          ledger: this.source.address,
          kind,
          call_id: text(a.getValue("callId")),
          agent: text(a.getValue("agent")),
          payload: JSON.stringify(payload),
          record_seal: null,
          ...at,
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      fresh += Number(result.numInsertedOrUpdatedRows ?? 0n);
    }
    return fresh;
  }

  async rollback(trx: Kysely<Database>, block: number): Promise<number> {
    const sealed = await trx
      .selectFrom("call_events")
      .select("block_number")
      .where("chain_id", "=", this.source.chainId)
      .where("ledger", "=", this.source.address)
      .where("block_number", ">", block)
      .where("record_seal", "is not", null)
      .orderBy("block_number")
      .executeTakeFirst();
    if (sealed) throw new ReorgTooDeepError(sealed.block_number, this.confirmations);
    const calls = await trx
      .deleteFrom("call_events")
      .where("chain_id", "=", this.source.chainId)
      .where("ledger", "=", this.source.address)
      .where("block_number", ">", block)
      .executeTakeFirst();
    const rounds = await trx
      .deleteFrom("consensus_rounds")
      .where("block_number", ">", block)
      .executeTakeFirst();
    return Number(calls.numDeletedRows) + Number(rounds.numDeletedRows);
  }

  /** Seals every confirmed resolution whose agent is registered; returns how many were sealed. */
  async promote(store: Store, through: number): Promise<number> {
    const db = store.db;
    // Once winding down the log only closes: no new record joins it (docs/stewardship.md).
    if (isFinalMode((await currentMode(db)).mode)) return 0;
    const resolutions = await db
      .selectFrom("call_events")
      .selectAll()
      .where("chain_id", "=", this.source.chainId)
      .where("ledger", "=", this.source.address)
      .where("kind", "in", ["settled", "expired"])
      .where("record_seal", "is", null)
      .where("block_number", "<=", through)
      .orderBy("block_number")
      .orderBy("log_index")
      .execute();
    let sealed = 0;
    for (const r of resolutions) {
      const body = await this.recordOf(db, r);
      if (!body) continue; // no reveal seen (before the start block) or agent not registered: not ours
      await db.transaction().execute(async (trx) => {
        const [stored] = await appendEngineRecords(
          trx,
          [{ kind: "call", agentId: body.agentId, seasonId: body.seasonId, body }],
          this.now(),
        );
        await trx
          .updateTable("call_events")
          .set({ record_seal: stored!.seal })
          .where("chain_id", "=", r.chain_id)
          .where("tx_hash", "=", r.tx_hash)
          .where("log_index", "=", r.log_index)
          .execute();
      });
      sealed++;
    }
    return sealed;
  }

  private async recordOf(
    db: Kysely<Database>,
    r: {
      kind: string;
      call_id: string;
      agent: string;
      payload: string;
      block_timestamp: number;
      tx_hash: string;
    },
  ): Promise<CallRecordBody | undefined> {
    const resolvedAt = r.block_timestamp;
    const agent = await db
      .selectFrom("agents")
      .innerJoin("seasons", "seasons.id", "agents.season_id")
      .select(["agents.id", "agents.season_id"])
      .where("agents.agent_key", "=", r.agent)
      .where("seasons.starts_at", "<=", resolvedAt)
      .where("seasons.ends_at", ">", resolvedAt)
      .orderBy("seasons.starts_at", "desc")
      .executeTakeFirst();
    if (!agent) return undefined;
    let reveal: Record<string, string | number> | null = null;
    let confidenceBps = EXPIRED_CONFIDENCE_BPS;
    let outcome: CallRecordBody["outcome"] = "miss";
    let exitPrice: string | null = null;
    if (r.kind === "settled") {
      const revealed = await db
        .selectFrom("call_events")
        .select("payload")
        .where("chain_id", "=", this.source.chainId)
        .where("ledger", "=", this.source.address)
        .where("call_id", "=", r.call_id)
        .where("kind", "=", "revealed")
        .executeTakeFirst();
      if (!revealed) return undefined;
      reveal = JSON.parse(revealed.payload) as Record<string, string | number>;
      const settled = JSON.parse(r.payload) as {
        outcome: CallRecordBody["outcome"] | null;
        exitPrice: string;
      };
      if (!settled.outcome) return undefined;
      confidenceBps = Number(reveal.confidenceBps);
      outcome = settled.outcome;
      exitPrice = settled.exitPrice;
    }
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
