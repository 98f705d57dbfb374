import { Contract, Interface, ZeroAddress, getAddress, type Provider } from "ethers";

/**
 * The event the stock factory emits once per token. This layout is the one reported for Robinhood
 * Chain's StockFactory; `MockStockFactory` (the replica's) emits the same, so both read alike.
 */
export const STOCK_FACTORY_ABI = [
  "event Deployed(bytes32 indexed uid, address stock, string name, string symbol)",
] as const;
const ERC20_ABI = [
  "function symbol() view returns (string)",
  "function decimals() view returns (uint8)",
  "function balanceOf(address) view returns (uint256)",
];
const UNISWAP_FACTORY_ABI = ["function getPool(address, address, uint24) view returns (address)"];

/** Uniswap v3's fee tiers, in hundredths of a bip. */
export const FEE_TIERS = [100, 500, 3000, 10000] as const;

export interface ListingSources {
  stockFactory: string;
  usdg: string;
  uniswapV3Factory: string;
  /** First block to read `Deployed` events from (the factory's deployment block, if known). */
  fromBlock: number;
  /** Blocks per `eth_getLogs` request at first; halved whenever the RPC refuses a range. */
  chunk?: number;
}

export interface ListedToken {
  symbol: string;
  address: string;
  decimals: number;
  uid: string;
}

export interface PooledToken extends ListedToken {
  /** The fee tier of the USDG pool holding the most USDG. */
  fee: number;
  pool: string;
}

export interface StockListing {
  chainId: number;
  readAt: { block: number; hash: string; timestamp: number };
  /** Tokens with a USDG pool on the Uniswap v3 factory, in deployment order. */
  stocks: PooledToken[];
  /** Tokens the factory deployed that have no USDG pool at any fee tier. */
  withoutPool: ListedToken[];
}

/** `Deployed` events of `address` in [from, to], asking for smaller ranges when the RPC refuses one. */
async function deployedEvents(provider: Provider, address: string, from: number, to: number, chunk: number) {
  const iface = new Interface(STOCK_FACTORY_ABI);
  const topic = iface.getEvent("Deployed")!.topicHash;
  const found: { uid: string; stock: string }[] = [];
  let size = Math.max(1, chunk);
  for (let start = from; start <= to; ) {
    const end = Math.min(to, start + size - 1);
    let logs;
    try {
      logs = await provider.getLogs({ address, topics: [topic], fromBlock: start, toBlock: end });
    } catch (error) {
      if (size === 1) throw error;
      size = Math.ceil(size / 2);
      continue;
    }
    for (const log of logs) {
      const parsed = iface.parseLog(log)!;
      found.push({ uid: parsed.args.uid as string, stock: getAddress(parsed.args.stock as string) });
    }
    start = end + 1;
  }
  return found;
}

/**
 * Reads the stock list from the chain at one pinned block: every token the stock factory deployed
 * (its `Deployed` events), each token's symbol and decimals, and its USDG pool from the Uniswap v3
 * factory (`getPool` at each fee tier; the pool holding the most USDG wins).
 */
export async function readStockListing(provider: Provider, sources: ListingSources): Promise<StockListing> {
  const block = await provider.getBlock("latest");
  if (block === null || block.hash === null) throw new Error("the RPC returned no latest block");
  const blockTag = block.number;
  const chainId = Number((await provider.getNetwork()).chainId);
  if ((await provider.getCode(sources.stockFactory, blockTag)) === "0x") {
    throw new Error(`no contract at the stock factory address ${sources.stockFactory} on chain ${chainId}`);
  }
  const events = await deployedEvents(
    provider,
    sources.stockFactory,
    sources.fromBlock,
    blockTag,
    sources.chunk ?? 100_000,
  );
  const uniswap = new Contract(sources.uniswapV3Factory, UNISWAP_FACTORY_ABI, provider);
  const usdg = new Contract(sources.usdg, ERC20_ABI, provider);
  const stocks: PooledToken[] = [];
  const withoutPool: ListedToken[] = [];
  for (const { uid, stock } of events) {
    const token = new Contract(stock, ERC20_ABI, provider);
    const [symbol, decimals] = await Promise.all([
      token.getFunction("symbol")({ blockTag }) as Promise<string>,
      token.getFunction("decimals")({ blockTag }) as Promise<bigint>,
    ]);
    const listed: ListedToken = { symbol, address: stock, decimals: Number(decimals), uid };
    let best: { fee: number; pool: string; usdg: bigint } | undefined;
    for (const fee of FEE_TIERS) {
      const pool = (await uniswap.getFunction("getPool")(sources.usdg, stock, fee, { blockTag })) as string;
      if (pool === ZeroAddress) continue;
      const held = (await usdg.getFunction("balanceOf")(pool, { blockTag })) as bigint;
      if (best === undefined || held > best.usdg) best = { fee, pool: getAddress(pool), usdg: held };
    }
    if (best === undefined) withoutPool.push(listed);
    else stocks.push({ ...listed, fee: best.fee, pool: best.pool });
  }
  return {
    chainId,
    readAt: { block: block.number, hash: block.hash, timestamp: block.timestamp },
    stocks,
    withoutPool,
  };
}
