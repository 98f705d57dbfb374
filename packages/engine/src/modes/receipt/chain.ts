import { seal, type Hex32 } from "@augur/scorer";
import { getAddress, id, isAddress, zeroPadValue, type Provider } from "ethers";
import { ReceiptInputError } from "../errors";
import {
  BURN_ADDRESSES,
  receiptDocument,
  type ChainKeeperTx,
  type ChainTransfer,
  type ReceiptDocument,
} from "./document";

/** What `augur receipt` reads: a block range and the public addresses whose records count. */
export interface ReceiptArgs {
  readonly fromBlock: number;
  readonly toBlock: number;
  readonly token?: string;
  readonly operators: readonly string[];
  readonly keeper?: string;
}

const TRANSFER = id("Transfer(address,address,uint256)");
/** Blocks per eth_getLogs call: public endpoints commonly cap a query's range near this. */
export const LOG_CHUNK_BLOCKS = 5_000;
/** Blocks read at once while looking for the keeper's transactions. */
const BLOCK_CONCURRENCY = 16;

/** A lowercase checksummed-valid address, or a ReceiptInputError naming the flag. */
export function receiptAddress(flag: string, text: string): string {
  if (!isAddress(text) || !/^0x[0-9a-fA-F]{40}$/.test(text)) {
    throw new ReceiptInputError(`${flag} must be a 0x address of 20 bytes, not '${text}'`);
  }
  return getAddress(text).toLowerCase();
}

/** Checks the arguments before anything is read: a receipt must be reproducible as asked. */
export function checkReceiptArgs(args: ReceiptArgs): void {
  const block = (flag: string, n: number) => {
    if (!Number.isSafeInteger(n) || n < 0)
      throw new ReceiptInputError(`${flag} must be a block number, 0 or more`);
  };
  block("--from", args.fromBlock);
  block("--to", args.toBlock);
  if (args.fromBlock > args.toBlock) {
    throw new ReceiptInputError(`--from ${args.fromBlock} is after --to ${args.toBlock}`);
  }
  if (args.operators.length > 0 && !args.token) {
    throw new ReceiptInputError("--operator needs --token: operator spends are transfers of that token");
  }
  if (!args.token && !args.keeper) {
    throw new ReceiptInputError(
      "nothing to reconstruct: give --token (transfers and burns) and/or --keeper (gas)",
    );
  }
}

async function transferLogs(
  provider: Provider,
  token: string,
  topics: (string | string[] | null)[],
  from: number,
  to: number,
): Promise<ChainTransfer[]> {
  const out: ChainTransfer[] = [];
  for (let start = from; start <= to; start += LOG_CHUNK_BLOCKS) {
    const end = Math.min(to, start + LOG_CHUNK_BLOCKS - 1);
    const logs = await provider.getLogs({ address: token, topics, fromBlock: start, toBlock: end });
    for (const log of logs) {
      if (log.topics.length !== 3 || log.topics[0] !== TRANSFER) continue; // ERC-721 style or foreign
      out.push({
        block: log.blockNumber,
        tx: log.transactionHash,
        logIndex: log.index,
        from: `0x${log.topics[1]!.slice(26)}`,
        to: `0x${log.topics[2]!.slice(26)}`,
        amount: BigInt(log.data),
      });
    }
  }
  return out;
}

async function keeperTransactions(
  provider: Provider,
  keeper: string,
  from: number,
  to: number,
): Promise<ChainKeeperTx[]> {
  const found: ChainKeeperTx[] = [];
  for (let start = from; start <= to; start += BLOCK_CONCURRENCY) {
    const numbers = Array.from({ length: Math.min(BLOCK_CONCURRENCY, to - start + 1) }, (_, i) => start + i);
    const blocks = await Promise.all(numbers.map((n) => provider.getBlock(n, true)));
    const hashes = blocks.flatMap((block, i) => {
      if (!block) throw new ReceiptInputError(`block ${numbers[i]} is not available from the RPC endpoint`);
      return block.prefetchedTransactions.filter((t) => t.from.toLowerCase() === keeper).map((t) => t.hash);
    });
    const receipts = await Promise.all(hashes.map((h) => provider.getTransactionReceipt(h)));
    receipts.forEach((r, i) => {
      if (!r) throw new ReceiptInputError(`no receipt for the keeper's transaction ${hashes[i]}`);
      found.push({
        block: r.blockNumber,
        tx: r.hash,
        index: r.index,
        status: r.status ?? 0,
        gasUsed: r.gasUsed,
        // ethers names the receipt's effectiveGasPrice `gasPrice`.
        effectiveGasPrice: r.gasPrice,
      });
    });
  }
  return found;
}

/**
 * Reconstructs the final receipt from public chain records only: the token's Transfer logs out
 * of the operator wallets and to the burn addresses, and the keeper's transactions (gas), in
 * `[fromBlock, toBlock]`. The range must be mined; its end blocks' hashes are sealed with it.
 */
export async function readReceipt(
  provider: Provider,
  args: ReceiptArgs,
): Promise<{ seal: Hex32; receipt: ReceiptDocument }> {
  checkReceiptArgs(args);
  const head = await provider.getBlockNumber();
  if (args.toBlock > head) {
    throw new ReceiptInputError(`--to ${args.toBlock} is not mined yet (the chain's head is block ${head})`);
  }
  const chainId = Number((await provider.getNetwork()).chainId);
  const [first, last] = await Promise.all([
    provider.getBlock(args.fromBlock),
    provider.getBlock(args.toBlock),
  ]);
  if (!first?.hash || !last?.hash)
    throw new ReceiptInputError("the RPC endpoint did not return the range's blocks");
  const operators = args.operators.map((a) => a.toLowerCase());
  const transfers: ChainTransfer[] = [];
  if (args.token) {
    const token = args.token.toLowerCase();
    if (operators.length > 0) {
      const fromTopics = operators.map((a) => zeroPadValue(a, 32));
      transfers.push(
        ...(await transferLogs(provider, token, [TRANSFER, fromTopics], args.fromBlock, args.toBlock)),
      );
    }
    const burnTopics = BURN_ADDRESSES.map((a) => zeroPadValue(a, 32));
    transfers.push(
      ...(await transferLogs(provider, token, [TRANSFER, null, burnTopics], args.fromBlock, args.toBlock)),
    );
  }
  const keeperTxs = args.keeper
    ? await keeperTransactions(provider, args.keeper.toLowerCase(), args.fromBlock, args.toBlock)
    : [];
  const receipt = receiptDocument({
    chainId,
    range: { fromBlock: args.fromBlock, toBlock: args.toBlock, fromHash: first.hash, toHash: last.hash },
    token: args.token ?? null,
    operators,
    keeper: args.keeper ?? null,
    transfers,
    keeperTxs,
  });
  return { seal: seal(receipt), receipt };
}
