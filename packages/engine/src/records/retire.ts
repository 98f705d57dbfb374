import {
  AgentRetiredError,
  BeforeRegistrationError,
  normalizeMessage,
  RecordOutOfSeasonError,
  recoverSigner,
  sealedRecord,
  sealRecord,
  StaleRecordError,
  UnknownAgentError,
  UnknownSeasonError,
  WrongSignerError,
} from "@augur/records";
import type { Hex32 } from "@augur/scorer";
import type { Store } from "../store/open";
import { findAgent } from "../store/queries/agents";
import { findRetirement, insertRetirement } from "../store/queries/retirements";
import { findSeason, seasonClosesAt } from "../store/queries/seasons";
import { RECORD_GRACE_SECONDS, type IngestContext } from "./ingest";

export interface RetirementResult {
  readonly seal: Hex32;
  readonly leafIndex: number;
  readonly retiredAt: number;
  /** False when the same retirement was already stored. */
  readonly created: boolean;
}

/**
 * Verifies, seals and stores an agent's signed `Retirement` and appends its seal to the log, in
 * one transaction (nothing written on a refusal). Signed by the agent's own key, dated within the
 * season, not before its registration and not older than the record grace; one per agent and season.
 */
export async function ingestRetirement(
  store: Store,
  submission: { readonly message: unknown; readonly signature: unknown },
  ctx: IngestContext,
): Promise<RetirementResult> {
  const message = normalizeMessage("Retirement", submission.message);
  const signer = recoverSigner("signature", "Retirement", ctx.chainId, message, submission.signature);
  const { seal, body } = sealRecord(sealedRecord("Retirement", ctx.chainId, message));
  const agentId = message.agentId as string;
  const seasonId = message.seasonId as string;
  const retiredAt = message.retiredAt as number;
  const now = ctx.now();
  return store.db.transaction().execute(async (trx) => {
    await store.log.lockForAppend(trx);
    const season = await findSeason(trx, seasonId);
    if (!season) throw new UnknownSeasonError(seasonId);
    const agent = await findAgent(trx, agentId, seasonId);
    if (!agent) throw new UnknownAgentError(agentId, seasonId);
    if (signer !== agent.agent_key) throw new WrongSignerError("signature", agent.agent_key, signer);
    const standing = await findRetirement(trx, seasonId, agentId);
    if (standing?.seal === seal)
      return { seal, leafIndex: Number(standing.leaf_index), retiredAt, created: false };
    if (standing) throw new AgentRetiredError(agentId, seasonId, Number(standing.retired_at));
    const latest = Math.min(seasonClosesAt(season), now + (ctx.maxClockSkew ?? 300));
    if (retiredAt < season.starts_at || retiredAt > latest)
      throw new RecordOutOfSeasonError("retiredAt", retiredAt, season.starts_at, latest);
    if (retiredAt < agent.registered_at)
      throw new BeforeRegistrationError("retiredAt", retiredAt, agent.registered_at);
    const grace = ctx.recordGrace ?? RECORD_GRACE_SECONDS;
    if (retiredAt < now - grace) throw new StaleRecordError("retiredAt", retiredAt, now, grace);
    const leafIndex = await store.log.append(trx, [seal], now);
    await insertRetirement(trx, {
      season_id: seasonId,
      agent_id: agentId,
      retired_at: retiredAt,
      body,
      seal,
      signer,
      signature: (submission.signature as string).toLowerCase(),
      leaf_index: leafIndex,
      received_at: now,
    });
    return { seal, leafIndex, retiredAt, created: true };
  });
}
