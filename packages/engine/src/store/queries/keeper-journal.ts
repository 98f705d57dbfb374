import type { Insertable, Kysely, Selectable } from "kysely";
import type { Database, KeeperAttemptsTable, KeeperAttemptStatus } from "../schema";

export type JournalRow = Selectable<KeeperAttemptsTable>;

/** What every row of one keeper's journal shares. */
export interface JournalScope {
  readonly chainId: number;
  readonly registry: string;
  readonly sender: string;
}

/** One signed transaction at a reserved nonce, as recorded before it was broadcast. */
export interface SignedTx {
  readonly treeSize: number;
  readonly root: string;
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
  };
  await db.insertInto("keeper_attempts").values(row).execute();
}

function scoped(db: Kysely<Database>, scope: JournalScope) {
  return db
    .selectFrom("keeper_attempts")
    .where("chain_id", "=", scope.chainId)
    .where("registry", "=", scope.registry)
    .where("sender", "=", scope.sender);
}

function signedTx(row: JournalRow): SignedTx {
  return {
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
 * undefined. The keeper keeps at most one open at a time, which is what rules out a nonce gap: a
 * new nonce is only reserved once the chain has used the previous one.
 */
export async function openNonce(
  db: Kysely<Database>,
  scope: JournalScope,
): Promise<{ nonce: number; txs: SignedTx[] } | undefined> {
  const signed = await scoped(db, scope)
    .selectAll()
    .where("status", "=", "signed")
    .orderBy("nonce", "asc")
    .orderBy("id", "asc")
    .execute();
  if (signed.length === 0) return undefined;
  const closed = new Set(
    (
      await scoped(db, scope)
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
export async function lastClosedNonce(db: Kysely<Database>, scope: JournalScope): Promise<number> {
  const row = await scoped(db, scope)
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

/** The head of the newest transaction the journal saw mined, if any. */
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
