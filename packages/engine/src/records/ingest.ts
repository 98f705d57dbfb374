import {
  AgentExistsError,
  AgentKeyInUseError,
  isRegistration,
  MeasuredByEngineError,
  normalizeMessage,
  RECORD_TYPE_NAMES,
  RecordOutOfSeasonError,
  recoverSigner,
  SeasonClosedError,
  sealedRecord,
  sealRecord,
  TIME_FIELD,
  UnknownAgentError,
  UnknownSeasonError,
  WalletInUseError,
  WalletRequiredError,
  WrongSignerError,
  type RecordTypeName,
} from "@augur/records";
import { InvalidInputError, type Hex32 } from "@augur/scorer";
import type { Store } from "../store/open";
import { findAgent, findAgentByKey, findAgentByWallet, insertAgent } from "../store/queries/agents";
import { findRecord, insertRecord } from "../store/queries/records";
import { findSeason, seasonClosesAt } from "../store/queries/seasons";
import type { RecordKind } from "../store/schema";
import { proveWallet, type ContractWalletCheck } from "./wallet";

/** What an agent posts: one EIP-712 message of a record type, with its signature(s). */
export interface Submission {
  readonly type: string;
  readonly message: unknown;
  readonly signature: unknown;
  /** Registration only: the creator's signature of the same typed data. */
  readonly creatorSignature?: unknown;
  /** RegistrationV2 only: the bound wallet's signature of the same typed data (or its EIP-1271 proof). */
  readonly walletSignature?: unknown;
}

export interface IngestResult {
  readonly seal: Hex32;
  readonly leafIndex: number;
  readonly kind: RecordKind;
  /** False when the same record was already stored (nothing new written). */
  readonly created: boolean;
}

export interface IngestContext {
  readonly chainId: number;
  /** Unix seconds. */
  readonly now: () => number;
  /** How far in the future a record's time may be, seconds (clock skew). */
  readonly maxClockSkew?: number;
  /** Asks a contract wallet (EIP-1271); without it only EOA wallets can be bound. */
  readonly contractWallets?: ContractWalletCheck;
}

function recordType(type: unknown): RecordTypeName {
  if (typeof type !== "string" || !(RECORD_TYPE_NAMES as readonly string[]).includes(type)) {
    throw new InvalidInputError("type", `must be one of ${RECORD_TYPE_NAMES.join(", ")}`);
  }
  return type as RecordTypeName;
}

/**
 * Verifies, validates, seals and stores one record and appends its seal to the log, all in one
 * transaction: on any refusal nothing is written. The same record twice is stored once.
 */
export async function ingestRecord(
  store: Store,
  submission: Submission,
  ctx: IngestContext,
): Promise<IngestResult> {
  const type = recordType(submission.type);
  const registering = isRegistration(type);
  const kind = (registering ? "registration" : type.toLowerCase()) as RecordKind;
  const message = normalizeMessage(type, submission.message);
  if (!registering && submission.creatorSignature !== undefined) {
    throw new InvalidInputError("creatorSignature", "is only for a Registration");
  }
  if (type !== "RegistrationV2" && submission.walletSignature !== undefined) {
    throw new InvalidInputError("walletSignature", "is only for a RegistrationV2");
  }
  const signer = recoverSigner("signature", type, ctx.chainId, message, submission.signature);
  const cosigner = registering
    ? recoverSigner("creatorSignature", type, ctx.chainId, message, submission.creatorSignature)
    : undefined;
  const walletProof =
    type === "RegistrationV2"
      ? await proveWallet(ctx.chainId, message, submission.walletSignature, ctx.contractWallets)
      : undefined;
  const { seal, body } = sealRecord(sealedRecord(type, ctx.chainId, message));
  const agentId = message.agentId as string;
  const seasonId = message.seasonId as string;
  const time = message[TIME_FIELD[type]] as number;
  const now = ctx.now();

  return store.db.transaction().execute(async (trx) => {
    await store.log.lockForAppend(trx);
    const existing = await findRecord(trx, seal);
    if (existing) {
      // The same content again: answer with what is stored, provided the same key signed it.
      if (existing.signer !== signer)
        throw new WrongSignerError("signature", existing.signer ?? "(none)", signer);
      return { seal, leafIndex: existing.leaf_index, kind, created: false };
    }

    const season = await findSeason(trx, seasonId);
    if (!season) throw new UnknownSeasonError(seasonId);
    const closesAt = seasonClosesAt(season);
    if (now >= closesAt) throw new SeasonClosedError(seasonId, closesAt);
    if (season.inputs === "measured" && (type === "Snapshot" || type === "Trade"))
      throw new MeasuredByEngineError(type, seasonId);
    if (season.inputs === "measured" && type === "Registration") throw new WalletRequiredError(seasonId);
    const earliest = registering ? 0 : season.starts_at;
    const latest = Math.min(closesAt, now + (ctx.maxClockSkew ?? 300));
    if (time < earliest || time > latest)
      throw new RecordOutOfSeasonError(TIME_FIELD[type], time, earliest, latest);

    if (registering) {
      const agentKey = message.agentKey as string;
      const creator = message.creator as string;
      if (signer !== agentKey) throw new WrongSignerError("signature", agentKey, signer);
      if (cosigner !== creator) throw new WrongSignerError("creatorSignature", creator, cosigner ?? "(none)");
      if (await findAgent(trx, agentId, seasonId)) throw new AgentExistsError(agentId, seasonId);
      const holder = await findAgentByKey(trx, seasonId, agentKey);
      if (holder) throw new AgentKeyInUseError(agentKey, seasonId, holder.id);
      const wallet = message.wallet as string | undefined;
      const owner = wallet === undefined ? undefined : await findAgentByWallet(trx, seasonId, wallet);
      if (owner) throw new WalletInUseError(wallet!, seasonId, owner.id);
    } else {
      const agent = await findAgent(trx, agentId, seasonId);
      if (!agent) throw new UnknownAgentError(agentId, seasonId);
      if (signer !== agent.agent_key) throw new WrongSignerError("signature", agent.agent_key, signer);
    }

    const leafIndex = await store.log.append(trx, [seal], now);
    await insertRecord(trx, {
      seal,
      kind,
      agent_id: agentId,
      season_id: seasonId,
      body,
      signer,
      signature: (submission.signature as string).toLowerCase(),
      cosignature: registering ? (submission.creatorSignature as string).toLowerCase() : null,
      leaf_index: leafIndex,
      received_at: now,
    });
    if (registering) {
      await insertAgent(trx, {
        id: agentId,
        season_id: seasonId,
        creator: message.creator as string,
        style: message.style as string,
        agent_key: message.agentKey as string,
        registration_seal: seal,
        registered_at: time,
        wallet: (message.wallet as string | undefined) ?? null,
        wallet_proof: walletProof ?? null,
        wallet_signature: walletProof ? (submission.walletSignature as string).toLowerCase() : null,
      });
    }
    return { seal, leafIndex, kind, created: true };
  });
}
