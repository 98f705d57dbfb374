import {
  AgentExistsError,
  AgentKeyInUseError,
  BeforeRegistrationError,
  EquivocationError,
  isRegistration,
  MeasuredByEngineError,
  RecordRefusedError,
  RecordOutOfSeasonError,
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
} from "@augur/records";
import type { Hex32 } from "@augur/scorer";
import type { Kysely } from "kysely";
import type { LogAppender } from "../store/merkle/log-store";
import type { Store } from "../store/open";
import { findAgent, findAgentByKey, findAgentByWallet, insertAgent } from "../store/queries/agents";
import { findRecord, findRecordAtMoment, insertRecord, insertRecordMoment } from "../store/queries/records";
import { findSeason, seasonClosesAt, type Season } from "../store/queries/seasons";
import type { Database, RecordKind } from "../store/schema";
import {
  checkSubmission,
  recoverCosigner,
  type CheckedRecord,
  type CheckedSubmission,
  type RecordSigners,
  type Submission,
} from "./ingest-check";
import { confirmWallet, type ContractWalletCheck } from "./wallet";

export { checkRecord, type CheckedRecord, type RecordSigners, type Submission } from "./ingest-check";

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

/**
 * What `checkSubmission` left to the main thread: a contract wallet's EIP-1271 answer (the chain)
 * and then, for such a registration, its creator's signature.
 */
export async function confirmSigners(
  submission: Submission,
  { record, signers, walletRecovered }: CheckedSubmission,
  ctx: Pick<IngestContext, "chainId" | "contractWallets">,
): Promise<RecordSigners> {
  if (walletRecovered === undefined) return signers;
  const walletProof = await confirmWallet(
    ctx.chainId,
    record.message,
    submission.walletSignature as string,
    walletRecovered,
    ctx.contractWallets,
  );
  const cosigned = signers.cosigner === undefined ? recoverCosigner(submission, record, ctx.chainId) : {};
  return { ...signers, ...cosigned, walletProof };
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
  const checked = checkSubmission(submission, ctx.chainId);
  return storeRecord(store, checked.record, ctx, await confirmSigners(submission, checked, ctx));
}

/**
 * The store's half of `ingestRecord`, for a checked record whose signers are recovered: season,
 * time, registration and signer rules, then the record, its moment, its agent and its log leaf
 * in one transaction (`storeRecords` of one: one code path).
 */
export async function storeRecord(
  store: Store,
  checked: CheckedRecord,
  ctx: IngestContext,
  signers: RecordSigners,
): Promise<IngestResult> {
  const [outcome] = await storeRecords(store, [{ checked, signers }], ctx);
  if ("refused" in outcome!) throw outcome.refused;
  return outcome!.result;
}

/** A record of a batch: what it is, or why it was refused. */
export type BatchOutcome = { readonly result: IngestResult } | { readonly refused: RecordRefusedError };

/**
 * `storeRecord` for many records in one transaction (one commit, so one write of the log's pages
 * for the lot): each is admitted or refused by the same rules, in order, seeing the ones before
 * it. A refusal is thrown before its record writes anything, so it leaves the batch intact; any
 * other error rolls the whole batch back and is thrown (the caller stores them one by one).
 */
export async function storeRecords(
  store: Store,
  records: readonly { readonly checked: CheckedRecord; readonly signers: RecordSigners }[],
  ctx: IngestContext,
): Promise<BatchOutcome[]> {
  return store.db.transaction().execute(async (trx) => {
    await store.log.lockForAppend(trx);
    const log = await store.log.appender(trx);
    const outcomes: BatchOutcome[] = [];
    const seasons = new Map<string, Season | undefined>();
    for (const { checked, signers } of records) {
      try {
        outcomes.push({ result: await admitRecord(trx, log, checked, ctx, signers, seasons) });
      } catch (error) {
        if (!(error instanceof RecordRefusedError)) throw error;
        outcomes.push({ refused: error });
      }
    }
    return outcomes;
  });
}

/** The rules and the writes of one record, inside a transaction that holds the log's lock. */
async function admitRecord(
  trx: Kysely<Database>,
  log: LogAppender,
  { type, kind, message, sealed }: CheckedRecord,
  ctx: IngestContext,
  { signer, cosigner, signature, cosignature, walletProof, walletSignature }: RecordSigners,
  seasons: Map<string, Season | undefined>,
): Promise<IngestResult> {
  const { seal, body } =
    sealed?.chainId === ctx.chainId ? sealed : sealRecord(sealedRecord(type, ctx.chainId, message));
  const agentId = message.agentId as string;
  const seasonId = message.seasonId as string;
  const time = message[TIME_FIELD[type]] as number;
  const now = ctx.now();
  const registering = isRegistration(type);

  const existing = await findRecord(trx, seal);
  if (existing) {
    // The same content again: answer with what is stored, provided the same key signed it.
    if (existing.signer !== signer)
      throw new WrongSignerError("signature", existing.signer ?? "(none)", signer);
    return { seal, leafIndex: existing.leaf_index, kind, created: false };
  }

  // One lookup per season and batch: the batch's transaction holds the log's lock, so no other
  // writer closes the season meanwhile.
  if (!seasons.has(seasonId)) seasons.set(seasonId, await findSeason(trx, seasonId));
  const season = seasons.get(seasonId);
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

  const leafIndex = await log.append(trx, [seal], now);
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
}
