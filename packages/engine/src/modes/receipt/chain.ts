import { seal, type Hex32 } from "@augur/scorer";
import { Contract, getAddress, id, isAddress, zeroPadValue, type Provider } from "ethers";
import { PRICE_ORACLE_ABI } from "../../chain/abi/price-oracle";
import { oraclePriceAt } from "../../closes/oracle";
import { ReceiptInputError } from "../errors";
import {
  BURN_ADDRESSES,
  receiptDocument,
  type ChainGasTx,
  type ChainNativeSend,
  type ChainTransfer,
  type ReceiptDocument,
  type ReceiptPricing,
} from "./document";

/** What `augur receipt` reads: a block range and the public addresses whose records count. */
export interface ReceiptArgs {
  readonly fromBlock: number;
  readonly toBlock: number;
  /** The project token: its burns count whoever sends them. */
  readonly token?: string;
  readonly operators: readonly string[];
  readonly keeper?: string;
  readonly settler?: string;
  /** The PriceOracle that values each line in USDG at its block's time. */
  readonly oracle?: string;
  /** The oracle's asset standing for ETH (wrapped ETH), to value ETH sends and gas. */
  readonly eth?: string;
}

const TRANSFER = id("Transfer(address,address,uint256)");
/** Blocks per eth_getLogs call: public endpoints commonly cap a query's range near this. */
export const LOG_CHUNK_BLOCKS = 5_000;
/** Blocks read at once while looking for the counted accounts' transactions. */
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
  if (!args.token && args.operators.length === 0 && !args.keeper && !args.settler) {
    throw new ReceiptInputError(
      "nothing to reconstruct: give --operator (spends, burns, gas), --token (its burns), --keeper or --settler (gas)",
    );
  }
  if (args.eth && !args.oracle)
    throw new ReceiptInputError("--eth needs --oracle: it names the oracle's asset for ETH");
}

async function transferLogs(
  provider: Provider,
  filter: { address?: string; topics: (string | string[] | null)[] },
  from: number,
  to: number,
): Promise<ChainTransfer[]> {
  const out: ChainTransfer[] = [];
  for (let start = from; start <= to; start += LOG_CHUNK_BLOCKS) {
    const end = Math.min(to, start + LOG_CHUNK_BLOCKS - 1);
    const logs = await provider.getLogs({ ...filter, fromBlock: start, toBlock: end });
    for (const log of logs) {
      // Three topics and a 32-byte amount: an ERC-20 Transfer (ERC-721's has four topics).
      if (log.topics.length !== 3 || log.topics[0] !== TRANSFER || log.data.length !== 66) continue;
      out.push({
        block: log.blockNumber,
        txIndex: log.transactionIndex,
        tx: log.transactionHash,
        logIndex: log.index,
        asset: log.address.toLowerCase(),
        from: `0x${log.topics[1]!.slice(26)}`,
        to: `0x${log.topics[2]!.slice(26)}`,
        amount: BigInt(log.data),
      });
    }
  }
  return out;
}

interface AccountActivity {
  readonly gasTxs: ChainGasTx[];
  readonly nativeSends: ChainNativeSend[];
  readonly times: Map<number, number>;
}

/**
 * Reads each block of the range for the transactions the counted accounts sent: every one paid
 * gas (reverted too); an operator's successful one with a value sent ETH.
 */
async function accountActivity(
  provider: Provider,
  accounts: ReadonlySet<string>,
  operators: ReadonlySet<string>,
  from: number,
  to: number,
): Promise<AccountActivity> {
  const activity: AccountActivity = { gasTxs: [], nativeSends: [], times: new Map() };
  for (let start = from; start <= to; start += BLOCK_CONCURRENCY) {
    const numbers = Array.from({ length: Math.min(BLOCK_CONCURRENCY, to - start + 1) }, (_, i) => start + i);
    const blocks = await Promise.all(numbers.map((n) => provider.getBlock(n, true)));
    const sent = blocks.flatMap((block, i) => {
      if (!block) throw new ReceiptInputError(`block ${numbers[i]} is not available from the RPC endpoint`);
      activity.times.set(block.number, block.timestamp);
      return block.prefetchedTransactions.filter((t) => accounts.has(t.from.toLowerCase()));
    });
    const receipts = await Promise.all(sent.map((t) => provider.getTransactionReceipt(t.hash)));
    receipts.forEach((r, i) => {
      const t = sent[i]!;
      if (!r) throw new ReceiptInputError(`no receipt for the transaction ${t.hash}`);
      const from = t.from.toLowerCase();
      const status = r.status ?? 0;
      // ethers names the receipt's effectiveGasPrice `gasPrice`.
      activity.gasTxs.push({
        block: r.blockNumber,
        txIndex: r.index,
        tx: r.hash,
        from,
        status,
        gasUsed: r.gasUsed,
        effectiveGasPrice: r.gasPrice,
      });
      const to = t.to ?? r.contractAddress;
      if (operators.has(from) && status === 1 && t.value > 0n && to) {
        activity.nativeSends.push({
          block: r.blockNumber,
          txIndex: r.index,
          tx: r.hash,
          from,
          to: to.toLowerCase(),
          amount: t.value,
        });
      }
    });
  }
  return activity;
}

const ERC20 = ["function decimals() view returns (uint8)"];

async function decimalsOf(provider: Provider, assets: readonly string[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const asset of assets) {
    try {
      out[asset] = Number(await new Contract(asset, ERC20, provider).getFunction("decimals").staticCall());
    } catch {
      throw new ReceiptInputError(
        `${asset} sent a Transfer but answers no decimals(): not an ERC-20 it can total`,
      );
    }
  }
  return out;
}

/** The oracle's prices for every (asset, block) a line needs, keyed `asset@block`. */
async function pricesFor(
  provider: Provider,
  pricing: ReceiptPricing,
  needs: readonly { asset: string; block: number }[],
  times: Map<number, number>,
): Promise<Map<string, bigint | null>> {
  const oracle = new Contract(pricing.oracle, PRICE_ORACLE_ABI, provider);
  const prices = new Map<string, bigint | null>();
  for (const { asset, block } of needs) {
    const key = `${asset}@${block}`;
    if (asset === pricing.usdg || prices.has(key)) continue;
    let at = times.get(block);
    if (at === undefined) {
      const header = await provider.getBlock(block);
      if (!header) throw new ReceiptInputError(`block ${block} is not available from the RPC endpoint`);
      at = header.timestamp;
      times.set(block, at);
    }
    const reading = await oraclePriceAt(oracle, asset, at);
    prices.set(key, "price18" in reading ? reading.price18 : null);
  }
  return prices;
}

/**
 * Reconstructs the final receipt from public chain records only, in `[fromBlock, toBlock]`: every
 * ERC-20 Transfer out of the operator wallets, the project token's burns, the ETH the operators
 * sent and the gas the operators, the keeper and the settler paid, each line valued in USDG at
 * its block's time by the oracle. The range must be mined; its end blocks' hashes are sealed.
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
  const { fromBlock, toBlock } = args;
  const operators = args.operators.map((a) => a.toLowerCase());
  const transfers: ChainTransfer[] = [];
  if (operators.length > 0) {
    const fromTopics = operators.map((a) => zeroPadValue(a, 32));
    transfers.push(...(await transferLogs(provider, { topics: [TRANSFER, fromTopics] }, fromBlock, toBlock)));
  }
  if (args.token) {
    const burnTopics = BURN_ADDRESSES.map((a) => zeroPadValue(a, 32));
    const filter = { address: args.token.toLowerCase(), topics: [TRANSFER, null, burnTopics] };
    transfers.push(...(await transferLogs(provider, filter, fromBlock, toBlock)));
  }
  const accounts = new Set(
    [...operators, args.keeper, args.settler].filter((a): a is string => !!a).map((a) => a.toLowerCase()),
  );
  const activity = await accountActivity(provider, accounts, new Set(operators), fromBlock, toBlock);
  const assets = [...new Set(transfers.map((t) => t.asset))].sort();
  const decimals = await decimalsOf(provider, assets);
  let pricing: ReceiptPricing | null = null;
  let prices = new Map<string, bigint | null>();
  if (args.oracle) {
    const oracle = new Contract(args.oracle, PRICE_ORACLE_ABI, provider);
    const usdg = ((await oracle.getFunction("usdg").staticCall()) as string).toLowerCase();
    const [usdgDecimals] = Object.values(await decimalsOf(provider, [usdg]));
    pricing = {
      oracle: args.oracle.toLowerCase(),
      usdg,
      usdgDecimals: usdgDecimals!,
      eth: args.eth?.toLowerCase() ?? null,
    };
    const eth = pricing.eth;
    const needs = [
      ...transfers.map((t) => ({ asset: t.asset, block: t.block })),
      ...(eth
        ? [...activity.gasTxs, ...activity.nativeSends].map((t) => ({ asset: eth, block: t.block }))
        : []),
    ];
    prices = await pricesFor(provider, pricing, needs, activity.times);
  }
  const receipt = receiptDocument({
    chainId,
    range: { fromBlock, toBlock, fromHash: first.hash, toHash: last.hash },
    token: args.token ?? null,
    operators,
    keeper: args.keeper ?? null,
    settler: args.settler ?? null,
    pricing,
    transfers,
    nativeSends: activity.nativeSends,
    gasTxs: activity.gasTxs,
    decimals,
    price: (asset, block) => prices.get(`${asset}@${block}`) ?? null,
  });
  return { seal: seal(receipt), receipt };
}
