import type { Log } from "ethers";

export type { Source } from "../store/queries/events";

/** Where a log sits in the chain, as every event table stores it (hashes lowercase). */
export type LogPlace = ReturnType<typeof logPlace>;

/** A log, or another entry placed like one (a transaction's value: `index` -1). */
export type LogLike = Pick<Log, "blockNumber" | "blockHash" | "transactionHash" | "index">;

export function logPlace(entry: LogLike, timestamps: ReadonlyMap<string, number>) {
  const blockHash = entry.blockHash.toLowerCase();
  return {
    block_number: entry.blockNumber,
    block_hash: blockHash,
    block_timestamp: timestamps.get(blockHash)!,
    tx_hash: entry.transactionHash.toLowerCase(),
    log_index: entry.index,
  };
}
