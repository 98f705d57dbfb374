import type { Log } from "ethers";

export type { Source } from "../store/queries/events";

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
