import { NATIVE_ASSET } from "@augur/scorer";
import { toQuantity } from "ethers";
import type { LogPlace } from "../indexer/blocks";
import type { EventRow } from "../indexer/event-table";
import type { ChainReader } from "../indexer/follow";
import { MonitoredLogs } from "./events";

/** Blocks asked for at once: a JsonRpcProvider sends concurrent calls as one JSON-RPC batch. */
const BLOCKS_PER_BATCH = 50;

/** A successful transaction that moved native ETH, placed like a log (`index` -1: before its logs). */
export interface NativeTransfer {
  readonly blockNumber: number;
  readonly blockHash: string;
  readonly blockTimestamp: number;
  readonly transactionHash: string;
  readonly index: -1;
  readonly from: string;
  readonly to: string;
  readonly value: bigint;
}

interface RpcTransaction {
  readonly hash: string;
  readonly from: string;
  readonly to: string | null;
  readonly value: string;
}
interface RpcBlock {
  readonly number: string;
  readonly hash: string;
  readonly timestamp: string;
  readonly transactions: readonly RpcTransaction[];
}

/**
 * Every successful transaction in `[fromBlock, toBlock]` whose value moved ETH from one address to
 * another: each block with its full transactions (eth_getBlockByNumber), then the receipt of each
 * transaction with a value, since a reverted one moved nothing (only those: most carry none).
 * Contract creations and sends to oneself are left out; ETH a contract forwards (an internal
 * transaction) is not in any transaction's value and needs a tracing node: not seen.
 */
export async function readNativeTransfers(
  provider: ChainReader,
  fromBlock: number,
  toBlock: number,
): Promise<NativeTransfer[]> {
  const out: NativeTransfer[] = [];
  for (let start = fromBlock; start <= toBlock; start += BLOCKS_PER_BATCH) {
    const numbers = Array.from(
      { length: Math.min(BLOCKS_PER_BATCH, toBlock - start + 1) },
      (_, i) => start + i,
    );
    const blocks = (await Promise.all(
      numbers.map((n) => provider.send("eth_getBlockByNumber", [toQuantity(n), true])),
    )) as (RpcBlock | null)[];
    const moved = blocks.flatMap((block, i) => {
      if (!block) throw new Error(`block ${numbers[i]} is not available from the RPC endpoint`);
      return block.transactions
        .filter((t) => t.to !== null && BigInt(t.value) > 0n && t.from.toLowerCase() !== t.to.toLowerCase())
        .map((t) => ({ block, t }));
    });
    const receipts = (await Promise.all(
      moved.map(({ t }) => provider.send("eth_getTransactionReceipt", [t.hash])),
    )) as ({ status: string } | null)[];
    moved.forEach(({ block, t }, i) => {
      if (receipts[i]?.status !== "0x1") return; // reverted (or unknown): no ETH moved
      out.push({
        blockNumber: Number(block.number),
        blockHash: block.hash.toLowerCase(),
        blockTimestamp: Number(block.timestamp),
        transactionHash: t.hash.toLowerCase(),
        index: -1,
        from: t.from.toLowerCase(),
        to: t.to!.toLowerCase(),
        value: BigInt(t.value),
      });
    });
  }
  return out;
}

/**
 * Native ETH transfers (transaction values), in `stewardship_transfers` as the asset "eth" with
 * log index -1: they only tell who funded a trader, criterion (c). Followed like a contract's logs
 * (cursor, remembered blocks, reorg rollback) under the source address "eth".
 */
export class NativeTransferEvents extends MonitoredLogs<NativeTransfer> {
  readonly topics = [];
  protected readonly tables = ["stewardship_transfers"] as const;

  read(provider: ChainReader, fromBlock: number, toBlock: number): Promise<NativeTransfer[]> {
    return readNativeTransfers(provider, fromBlock, toBlock);
  }

  protected rowsOf(entry: NativeTransfer, place: LogPlace): EventRow[] {
    const row = {
      chain_id: this.source.chainId,
      token: NATIVE_ASSET,
      from_address: entry.from,
      to_address: entry.to,
      amount: entry.value.toString(),
      ...place,
    };
    return [{ table: "stewardship_transfers", row }];
  }
}
