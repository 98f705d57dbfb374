import type { Log } from "ethers";
import type { Kysely } from "kysely";
import type { Database } from "../store/schema";

/** One followed contract on one chain: the key of the cursor and of the remembered block hashes. */
export interface Source {
  readonly chainId: number;
  readonly address: string;
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

/** Where a log sits in the chain, as every event table stores it (hashes lowercase). */
export type LogPlace = ReturnType<typeof logPlace>;

export function logPlace(entry: Log, timestamps: ReadonlyMap<string, number>) {
  const blockHash = entry.blockHash.toLowerCase();
  return {
    block_number: entry.blockNumber,
    block_hash: blockHash,
    block_timestamp: timestamps.get(blockHash)!,
    tx_hash: entry.transactionHash.toLowerCase(),
    log_index: entry.index,
  };
}
