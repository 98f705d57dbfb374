import {
  AgentExistsError,
  AgentKeyInUseError,
  BeforeRegistrationError,
  checkScorable,
  EquivocationError,
  isRegistration,
  MeasuredByEngineError,
  normalizeMessage,
  RECORD_KIND,
  RECORD_TYPE_NAMES,
  type NormalizedMessage,
  RecordOutOfSeasonError,
  recoverSigner,
  SeasonClosedError,
  sealedRecord,
  StaleRecordError,
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
import { findRecord, findRecordAtMoment, insertRecord, insertRecordMoment } from "../store/queries/records";
import { findSeason, seasonClosesAt } from "../store/queries/seasons";
import type { RecordKind } from "../store/schema";
import { proveWallet, type ContractWalletCheck, type WalletProof } from "./wallet";

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
  /** How far before its arrival a record's time may be, seconds (default `RECORD_GRACE_SECONDS`). */
  readonly recordGrace?: number;
  /** Asks a contract wallet (EIP-1271); without it only EOA wallets can be bound. */
  readonly contractWallets?: ContractWalletCheck;
}

/** A signed record dated more than this before it arrives is refused (docs/engine.md). */
export const RECORD_GRACE_SECONDS = 600;

function recordType(type: unknown): RecordTypeName {
  if (typeof type !== "string" || !(RECORD_TYPE_NAMES as readonly string[]).includes(type)) {
    throw new InvalidInputError("type", `must be one of ${RECORD_TYPE_NAMES.join(", ")}`);
  }
  return type as RecordTypeName;
}

/** A record that passed every check that needs no store: its type, kind and normal form. */
export interface CheckedRecord {
  readonly type: RecordTypeName;
  readonly kind: RecordKind;
  readonly message: NormalizedMessage;
}

/** Who signed a checked record (recovered from its signatures) and the signatures as stored. */
export interface RecordSigners {
  readonly signer: string;
  readonly cosigner?: string;
  readonly signature: string;
  readonly cosignature?: string;
  /** RegistrationV2: how the wallet proved it agreed, and its signature as stored. */
  readonly walletProof?: WalletProof;
  readonly walletSignature?: string;
}

/**
 * Every check of one record that needs neither the store nor a signature: its type, every field
 * (normal form) and the scorer's own rule for such a record, so nothing it would refuse gets in.
 */
export function checkRecord(type: unknown, message: unknown): CheckedRecord {
  const name = recordType(type);
  const normal = normalizeMessage(name, message);
  checkScorable(name, normal);
  return { type: name, kind: RECORD_KIND[name], message: normal };
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
  const checked = checkRecord(submission.type, submission.message);
  const { type, message } = checked;
  const registering = isRegistration(type);
  if (!registering && submission.creatorSignature !== undefined) {
    throw new InvalidInputError("creatorSignature", "is only for a Registration");
  }
  if (type !== "RegistrationV2" && submission.walletSignature !== undefined) {
    throw new InvalidInputError("walletSignature", "is only for a RegistrationV2");
  }
  const signer = recoverSigner("signature", type, ctx.chainId, message, submission.signature);
  const walletProof =
    type === "RegistrationV2"
      ? await proveWallet(ctx.chainId, message, submission.walletSignature, ctx.contractWallets)
      : undefined;
  return storeRecord(store, checked, ctx, {
    signer,
    signature: (submission.signature as string).toLowerCase(),
    ...(walletProof
      ? { walletProof, walletSignature: (submission.walletSignature as string).toLowerCase() }
      : {}),
    ...(registering
      ? {
          cosigner: recoverSigner(
            "creatorSignature",
            type,
            ctx.chainId,
            message,
            submission.creatorSignature,
          ),
          cosignature: (submission.creatorSignature as string).toLowerCase(),
        }
      : {}),
  });
}

/**
 * The store's half of `ingestRecord`, for a checked record whose signers are recovered: season,
 * time, registration and signer rules, then the record, its moment, its agent and its log leaf
 * in one transaction.
 */
export async function storeRecord(
  store: Store,
  { type, kind, message }: CheckedRecord,
  ctx: IngestContext,
  { signer, cosigner, signature, cosignature, walletProof, walletSignature }: RecordSigners,
): Promise<IngestResult> {
  const { seal, body } = sealRecord(sealedRecord(type, ctx.chainId, message));
  const agentId = message.agentId as string;
  const seasonId = message.seasonId as string;
  const time = message[TIME_FIELD[type]] as number;
  const now = ctx.now();
  const registering = isRegistration(type);

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
    const grace = ctx.recordGrace ?? RECORD_GRACE_SECONDS;
    if (time < now - grace) throw new StaleRecordError(TIME_FIELD[type], time, now, grace);

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
      if (time < agent.registered_at)
        throw new BeforeRegistrationError(TIME_FIELD[type], time, agent.registered_at);
      const moment = { season_id: seasonId, agent_id: agentId, kind, moment: time };
      const standing = await findRecordAtMoment(trx, moment);
      if (standing) throw new EquivocationError(kind, TIME_FIELD[type], time, standing);
    }

    const leafIndex = await store.log.append(trx, [seal], now);
    await insertRecord(trx, {
      seal,
      kind,
      agent_id: agentId,
      season_id: seasonId,
      body,
      signer,
      signature,
      cosignature: cosignature ?? null,
      leaf_index: leafIndex,
      received_at: now,
    });
    if (!registering)
      await insertRecordMoment(trx, { season_id: seasonId, agent_id: agentId, kind, moment: time, seal });
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
        wallet_signature: walletSignature ?? null,
      });
    }
    return { seal, leafIndex, kind, created: true };
  });
}
