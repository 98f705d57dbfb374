import type { Log } from "ethers";
import { send, symbolOf, type LedgerContext, type Sent } from "./client";
import { buildCommitment, directionName, randomSalt } from "./commitment";
import { RevealTimedOutError, SaltNotFoundError, UnknownCallError, WrongCallStatusError } from "./errors";
import type { SaltVault, VaultEntry } from "./vault";
import { validateCall, type CallRequest } from "./validate";

export const CALL_STATUS = ["none", "committed", "revealed", "settled", "expired"] as const;
export const CALL_OUTCOME = ["none", "hit", "miss", "void"] as const;

/** `CallLedger.getCall`, with names instead of enum numbers. */
export interface CallInfo {
  readonly callId: bigint;
  readonly agent: string;
  readonly committedAt: number;
  readonly status: (typeof CALL_STATUS)[number];
  readonly outcome: (typeof CALL_OUTCOME)[number];
  readonly commitment: string;
  readonly asset: string;
  readonly window: number;
  readonly direction: "none" | "up" | "down";
  readonly confidenceBps: number;
  readonly closesAt: number;
  readonly entryPrice: bigint;
  /** committedAt + revealTimeout: reveal until then, expire after. */
  readonly revealDeadline: number;
}

export async function readCall(context: LedgerContext, callId: bigint): Promise<CallInfo> {
  const [view, revealTimeout] = await Promise.all([
    context.ledger.getFunction("getCall")(callId) as Promise<Record<string, unknown>>,
    context.ledger.getFunction("revealTimeout")() as Promise<bigint>,
  ]);
  const status = CALL_STATUS[Number(view.status)] ?? "none";
  if (status === "none") throw new UnknownCallError(callId);
  return {
    callId,
    agent: view.agent as string,
    committedAt: Number(view.committedAt),
    status,
    outcome: CALL_OUTCOME[Number(view.outcome)] ?? "none",
    commitment: view.commitment as string,
    asset: view.asset as string,
    window: Number(view.window),
    direction: directionName(Number(view.direction)),
    confidenceBps: Number(view.confidenceBps),
    closesAt: Number(view.closesAt),
    entryPrice: view.entryPrice as bigint,
    revealDeadline: Number(view.committedAt) + Number(revealTimeout),
  };
}

function committedEvent(
  context: LedgerContext,
  logs: readonly Log[],
): { callId: bigint; committedAt: number } {
  for (const log of logs) {
    if (log.address.toLowerCase() !== String(context.ledger.target).toLowerCase()) continue;
    const parsed = context.ledger.interface.parseLog(log);
    if (parsed?.name === "Committed")
      return { callId: parsed.args[0] as bigint, committedAt: Number(parsed.args[3]) };
  }
  throw new Error("the commit transaction emitted no Committed event");
}

export interface CommitResult extends Sent {
  readonly callId: bigint;
  readonly entry: VaultEntry;
}

/**
 * Validates the call (reads only), writes its salt to the vault, and only then sends the commit:
 * whatever happens after the vault write, the salt is on disk, keyed by the commitment. The
 * call id is added to the entry once the commit is mined.
 */
export async function commitCall(
  context: LedgerContext,
  vault: SaltVault,
  request: CallRequest,
): Promise<CommitResult> {
  const terms = { ...(await validateCall(context, request)), salt: randomSalt() };
  const ledger = String(context.ledger.target);
  const commitment = buildCommitment({ chainId: context.chainId, ledger, agent: context.agent }, terms);
  vault.put({
    commitment,
    chainId: Number(context.chainId),
    ledger,
    agent: context.agent,
    ...terms,
    preparedAt: Math.floor(Date.now() / 1000),
    preparedBlock: await context.signer.provider.getBlockNumber(),
    state: "prepared",
  });
  let broadcast = false;
  let sent;
  try {
    sent = await send(context.ledger.getFunction("commit"), [commitment], {
      onSent: (txHash) => {
        broadcast = true;
        vault.update(commitment, { commitTx: txHash });
      },
    });
  } catch (error) {
    // Refused before broadcasting (gas estimation): the salt was never used, forget it now.
    // Once broadcast, the entry stays whatever happened: the commit may still be mined.
    if (!broadcast) vault.remove(commitment);
    throw error;
  }
  const { callId, committedAt } = committedEvent(context, sent.receipt.logs);
  const entry = vault.update(commitment, {
    state: "committed",
    callId: callId.toString(),
    committedAt,
    committedBlock: sent.blockNumber,
  });
  return { txHash: sent.txHash, blockNumber: sent.blockNumber, gasUsed: sent.gasUsed, callId, entry };
}

function entryFor(vault: SaltVault, callId: bigint): VaultEntry {
  const entry = vault.findByCallId(callId);
  if (!entry) throw new SaltNotFoundError(`call ${callId}`, vault.path);
  return entry;
}

export interface RevealResult extends Sent {
  readonly callId: bigint;
  readonly closesAt: number;
  readonly entryPrice: bigint;
}

/** Reveals a committed call with the terms and salt from the vault. */
export async function revealCall(
  context: LedgerContext,
  vault: SaltVault,
  callId: bigint,
): Promise<RevealResult> {
  const entry = entryFor(vault, callId);
  const call = await readCall(context, callId);
  if (call.status !== "committed") throw new WrongCallStatusError(callId, call.status, "committed");
  const now = (await context.signer.provider.getBlock("latest"))?.timestamp ?? 0;
  if (now > call.revealDeadline) throw new RevealTimedOutError(callId, call.revealDeadline);
  const sent = await send(
    context.ledger.getFunction("reveal"),
    [callId, entry.asset, entry.window, entry.direction, entry.confidenceBps, entry.salt],
    { committedBlock: entry.committedBlock },
  );
  const revealed = await readCall(context, callId);
  vault.update(entry.commitment, { state: "revealed", closesAt: revealed.closesAt });
  return { ...pick(sent), callId, closesAt: revealed.closesAt, entryPrice: revealed.entryPrice };
}

export interface SettleResult extends Sent {
  readonly callId: bigint;
  readonly outcome: (typeof CALL_OUTCOME)[number];
}

/** Settles a revealed call after it closes (anyone may); records the outcome in the vault if it holds the call. */
export async function settleCall(
  context: LedgerContext,
  callId: bigint,
  vault?: SaltVault,
): Promise<SettleResult> {
  const call = await readCall(context, callId);
  if (call.status !== "revealed") throw new WrongCallStatusError(callId, call.status, "revealed");
  const sent = await send(context.ledger.getFunction("settle"), [callId]);
  const settled = await readCall(context, callId);
  const entry = vault?.findByCallId(callId);
  if (vault && entry) vault.update(entry.commitment, { state: "settled", outcome: settled.outcome });
  return { ...pick(sent), callId, outcome: settled.outcome };
}

/** Expires a call nobody revealed in time (anyone may): it counts as a miss for its agent. */
export async function expireCall(
  context: LedgerContext,
  callId: bigint,
  vault?: SaltVault,
): Promise<Sent & { callId: bigint }> {
  const call = await readCall(context, callId);
  if (call.status !== "committed") throw new WrongCallStatusError(callId, call.status, "committed");
  const sent = await send(context.ledger.getFunction("expire"), [callId]);
  const entry = vault?.findByCallId(callId);
  if (vault && entry) vault.update(entry.commitment, { state: "expired", outcome: "miss" });
  return { ...pick(sent), callId };
}

function pick(sent: Sent): Sent {
  return { txHash: sent.txHash, blockNumber: sent.blockNumber, gasUsed: sent.gasUsed };
}

/** A human line for a call. */
export function describeCall(context: LedgerContext, call: CallInfo): string {
  const terms =
    call.status === "committed" || call.status === "expired"
      ? `terms hidden until reveal (deadline ${new Date(call.revealDeadline * 1000).toISOString()})`
      : `${call.direction} ${symbolOf(context, call.asset)} over ${call.window}s at ${call.confidenceBps} bps, closes ${new Date(call.closesAt * 1000).toISOString()}`;
  const outcome = call.outcome === "none" ? "" : ` → ${call.outcome}`;
  return `call ${call.callId}: ${call.status}${outcome}; ${terms}`;
}
