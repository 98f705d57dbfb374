import type { Insertable, Kysely } from "kysely";
import type { Database } from "../schema";

/** One followed contract on one chain: the key of its event rows, cursor and remembered blocks. */
export interface Source {
  readonly chainId: number;
  readonly address: string;
}

/** The tables the chain followers fill with logs as seen (rolled back on reorg). */
export type EventTable =
  | "anchor_events"
  | "call_events"
  | "consensus_rounds"
  | "stewardship_transfers"
  | "stewardship_swaps";

/** The column holding the followed contract's address in each table (consensus rounds have none). */
const ADDRESS_COLUMN = {
  anchor_events: "registry",
  call_events: "ledger",
  consensus_rounds: undefined,
  stewardship_transfers: "token",
  stewardship_swaps: "pool",
} as const satisfies Record<EventTable, string | undefined>;

/**
 * What makes a reorg too deep to roll back: a row that something final was made from.
 * `anchors`: an anchor recorded from this registry's events; `call records`: a resolution already
 * sealed as a call record; `stewardship days`: a sealed day measured up to a block.
 */
export type FinalRows = "anchors" | "call records" | "stewardship days";

/** A log stored once: a log seen before (same chain, transaction and index) is skipped. Returns rows added. */
export async function insertEvent<T extends EventTable>(
  trx: Kysely<Database>,
  table: T,
  row: Insertable<Database[T]>,
): Promise<number> {
  // Kysely cannot type `values` for a table chosen by a type parameter; the row is typed above.
  const result = await trx
    .insertInto(table)
    .values(row as never)
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n);
}

/** Deletes the source's rows of `table` from blocks above `block` (every row for consensus rounds). */
export async function deleteEventsAbove(
  trx: Kysely<Database>,
  table: EventTable,
  source: Source,
  block: number,
): Promise<number> {
  const column = ADDRESS_COLUMN[table];
  // Dynamic references: the table is one of several, their shared columns named at run time.
  const ref = trx.dynamic.ref;
  let query = trx.deleteFrom(table).where(ref("block_number"), ">", block);
  if (column !== undefined) {
    query = query.where(ref("chain_id"), "=", source.chainId).where(ref(column), "=", source.address);
  }
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * The lowest block above `block` that `final` rows of this source rely on, or undefined: rolling
 * back above `block` would change something already published.
 */
export async function finalBlockAbove(
  trx: Kysely<Database>,
  final: FinalRows,
  source: Source,
  block: number,
): Promise<number | undefined> {
  if (final === "anchors") {
    const row = await trx
      .selectFrom("anchors")
      .select("block_number")
      .where("chain_id", "=", source.chainId)
      .where("registry", "=", source.address)
      .where("block_number", ">", block)
      .orderBy("block_number")
      .executeTakeFirst();
    return row?.block_number;
  }
  if (final === "call records") {
    const row = await trx
      .selectFrom("call_events")
      .select("block_number")
      .where("chain_id", "=", source.chainId)
      .where("ledger", "=", source.address)
      .where("block_number", ">", block)
      .where("record_seal", "is not", null)
      .orderBy("block_number")
      .executeTakeFirst();
    return row?.block_number;
  }
  // Days are measured across every monitored contract, so any sealed day counts.
  const row = await trx
    .selectFrom("stewardship_days")
    .select((eb) => eb.fn.max<number | null>("through_block").as("through"))
    .executeTakeFirst();
  return row?.through != null && Number(row.through) > block ? block + 1 : undefined;
}

/** The last block read for this source, or undefined before the first read. */
export async function cursorOf(db: Kysely<Database>, source: Source): Promise<number | undefined> {
  const row = await db
    .selectFrom("indexer_cursors")
    .select("last_block")
    .where("chain_id", "=", source.chainId)
    .where("address", "=", source.address)
    .executeTakeFirst();
  return row?.last_block;
}

export async function setCursor(db: Kysely<Database>, source: Source, lastBlock: number): Promise<void> {
  await db
    .deleteFrom("indexer_cursors")
    .where("chain_id", "=", source.chainId)
    .where("address", "=", source.address)
    .execute();
  await db
    .insertInto("indexer_cursors")
    .values({ chain_id: source.chainId, address: source.address, last_block: lastBlock })
    .execute();
}

/** Remembers a block's hash (idempotent: the same block read twice keeps one row). */
export async function rememberBlock(
  db: Kysely<Database>,
  source: Source,
  blockNumber: number,
  blockHash: string,
): Promise<void> {
  await db
    .deleteFrom("indexer_blocks")
    .where("chain_id", "=", source.chainId)
    .where("address", "=", source.address)
    .where("block_number", "=", blockNumber)
    .execute();
  await db
    .insertInto("indexer_blocks")
    .values({
      chain_id: source.chainId,
      address: source.address,
      block_number: blockNumber,
      block_hash: blockHash,
    })
    .execute();
}

/** Up to `limit` remembered blocks below `below`, newest first (one page of the reorg walk). */
export async function rememberedBelow(
  db: Kysely<Database>,
  source: Source,
  below: number,
  limit: number,
): Promise<Array<{ block_number: number; block_hash: string }>> {
  return db
    .selectFrom("indexer_blocks")
    .select(["block_number", "block_hash"])
    .where("chain_id", "=", source.chainId)
    .where("address", "=", source.address)
    .where("block_number", "<", below)
    .orderBy("block_number", "desc")
    .limit(limit)
    .execute();
}

/** Forgets every remembered block above `block` (they were reorganised away). */
export async function forgetAbove(db: Kysely<Database>, source: Source, block: number): Promise<void> {
  await db
    .deleteFrom("indexer_blocks")
    .where("chain_id", "=", source.chainId)
    .where("address", "=", source.address)
    .where("block_number", ">", block)
    .execute();
}
