import type { Insertable, Kysely, Selectable } from "kysely";
import type { Database, KeeperAction, KeeperAttemptsTable, KeeperAttemptStatus } from "../schema";

export type JournalRow = Selectable<KeeperAttemptsTable>;

/** What every row of one account's journal shares: nonces are per chain and sender. */
export interface SenderScope {
  readonly chainId: number;
  readonly sender: string;
}

/** The rows of one account's transactions to one contract (`registry`: the target, by its old name). */
export interface JournalScope extends SenderScope {
  readonly registry: string;
}

/**
 * What one transaction is for: posting head (`treeSize`, `root`) to the registry, or settling /
 * expiring call `callId` in the ledger (tree size 0 and root "" then).
 */
export interface TxPurpose {
  readonly to: string;
  readonly action: KeeperAction;
  readonly treeSize: number;
  readonly root: string;
  readonly callId?: string;
}

/** One signed transaction at a reserved nonce, as recorded before it was broadcast. */
export interface SignedTx extends TxPurpose {
  readonly nonce: number;
  readonly txHash: string;
  readonly rawTx: string;
  readonly gasLimit: bigint;
  readonly maxFeePerGas: bigint;
  readonly maxPriorityFeePerGas: bigint;
  /** Unix seconds when it was signed. */
  readonly signedAt: number;
}

/** Statuses that close a nonce: the chain has used it (mined or reverted), or someone else did. */
const CLOSING: readonly KeeperAttemptStatus[] = ["mined", "reverted", "failed"];

export interface Step {
  readonly status: KeeperAttemptStatus;
  readonly treeSize: number;
  readonly root: string;
  readonly nonce?: number;
  readonly txHash?: string;
  readonly rawTx?: string;
  readonly gasLimit?: bigint;
  readonly maxFeePerGas?: bigint;
  readonly maxPriorityFeePerGas?: bigint;
  readonly replaces?: string;
  readonly blockNumber?: number;
  readonly error?: string;
  /** Absent: `post`. */
  readonly action?: KeeperAction;
  readonly callId?: string;
  readonly gasUsed?: bigint;
}

/** Appends one step; rows are never edited (the table is append-only in the database). */
export async function appendStep(
  db: Kysely<Database>,
  scope: JournalScope,
  step: Step,
  at: number,
): Promise<void> {
  const row: Insertable<KeeperAttemptsTable> = {
    tree_size: step.treeSize,
    root: step.root,
    chain_id: scope.chainId,
    registry: scope.registry,
    sender: scope.sender,
    nonce: step.nonce ?? null,
    tx_hash: step.txHash ?? null,
    raw_tx: step.rawTx ?? null,
    gas_limit: step.gasLimit?.toString() ?? null,
    max_fee_per_gas: step.maxFeePerGas?.toString() ?? null,
    max_priority_fee_per_gas: step.maxPriorityFeePerGas?.toString() ?? null,
    replaces: step.replaces ?? null,
    block_number: step.blockNumber ?? null,
    status: step.status,
    error: step.error ?? null,
    at,
    action: step.action ?? null,
    call_id: step.callId ?? null,
    gas_used: step.gasUsed?.toString() ?? null,
  };
  await db.insertInto("keeper_attempts").values(row).execute();
}

function scoped(db: Kysely<Database>, scope: JournalScope) {
  return bySender(db, scope).where("registry", "=", scope.registry);
}

function bySender(db: Kysely<Database>, scope: SenderScope) {
  return db
    .selectFrom("keeper_attempts")
    .where("chain_id", "=", scope.chainId)
    .where("sender", "=", scope.sender);
}

function signedTx(row: JournalRow): SignedTx {
  return {
    to: row.registry,
    action: row.action ?? "post",
    ...(row.call_id ? { callId: row.call_id } : {}),
    treeSize: row.tree_size,
    root: row.root,
    nonce: row.nonce!,
    txHash: row.tx_hash!,
    rawTx: row.raw_tx!,
    gasLimit: BigInt(row.gas_limit!),
    maxFeePerGas: BigInt(row.max_fee_per_gas!),
    maxPriorityFeePerGas: BigInt(row.max_priority_fee_per_gas!),
    signedAt: row.at,
  };
}

/**
 * The nonce reserved but not yet closed, with every transaction signed at it (oldest first), or
 * undefined. The account keeps at most one open at a time, whatever contract it calls, which is
 * what rules out a nonce gap: a new nonce is only reserved once the chain has used the previous one.
 */
export async function openNonce(
  db: Kysely<Database>,
  scope: SenderScope,
): Promise<{ nonce: number; txs: SignedTx[] } | undefined> {
  const signed = await bySender(db, scope)
    .selectAll()
    .where("status", "=", "signed")
    .orderBy("nonce", "asc")
    .orderBy("id", "asc")
    .execute();
  if (signed.length === 0) return undefined;
  const closed = new Set(
    (
      await bySender(db, scope)
        .select("nonce")
        .where("status", "in", CLOSING)
        .where("nonce", "is not", null)
        .execute()
    ).map((r) => r.nonce),
  );
  const open = signed.filter((r) => !closed.has(r.nonce));
  if (open.length === 0) return undefined;
  const nonce = open[0]!.nonce!;
  return { nonce, txs: open.filter((r) => r.nonce === nonce).map(signedTx) };
}

/** The highest nonce the journal has seen used on chain by this sender, or -1. */
export async function lastClosedNonce(db: Kysely<Database>, scope: SenderScope): Promise<number> {
  const row = await bySender(db, scope)
    .select((eb) => eb.fn.max<number | null>("nonce").as("n"))
    .where("status", "in", ["mined", "reverted"])
    .executeTakeFirst();
  return row?.n == null ? -1 : Number(row.n);
}

/** Whether the journal already holds a closing `mined` row for a head of this size. */
export async function minedFor(
  db: Kysely<Database>,
  scope: JournalScope,
  treeSize: number,
): Promise<boolean> {
  const row = await scoped(db, scope)
    .select("id")
    .where("status", "in", ["mined", "skipped"])
    .where("tree_size", "=", treeSize)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The whole journal of one keeper, in order (tests and `augur keeper` progress). */
export async function journal(db: Kysely<Database>, scope: JournalScope): Promise<JournalRow[]> {
  return scoped(db, scope).selectAll().orderBy("id", "asc").execute();
}

/** The transaction the journal saw mined for a head of this size, if any. */
export async function minedTxFor(
  db: Kysely<Database>,
  scope: JournalScope,
  treeSize: number,
): Promise<string | undefined> {
  const row = await scoped(db, scope)
    .select("tx_hash")
    .where("status", "=", "mined")
    .where("tree_size", "=", treeSize)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.tx_hash ?? undefined;
}

/** Gas the account's mined and reverted transactions used, per action (the journal's own count). */
export async function gasByAction(
  db: Kysely<Database>,
  scope: SenderScope,
): Promise<Record<KeeperAction, { readonly txs: number; readonly gasUsed: bigint }>> {
  const rows = await bySender(db, scope)
    .select(["action", "gas_used"])
    .where("status", "in", ["mined", "reverted"])
    .execute();
  const out = {
    post: { txs: 0, gasUsed: 0n },
    settle: { txs: 0, gasUsed: 0n },
    expire: { txs: 0, gasUsed: 0n },
  };
  for (const r of rows) {
    const entry = out[r.action ?? "post"];
    entry.txs += 1;
    entry.gasUsed += BigInt(r.gas_used ?? 0);
  }
  return out;
}

/** The head of the newest post the journal saw mined to this registry, if any. */
export async function lastMined(
  db: Kysely<Database>,
  scope: JournalScope,
): Promise<{ treeSize: number; root: string } | undefined> {
  const row = await scoped(db, scope)
    .select(["tree_size", "root"])
    .where("status", "=", "mined")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? { treeSize: Number(row.tree_size), root: row.root } : undefined;
}
