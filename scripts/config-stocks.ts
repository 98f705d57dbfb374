/**
 * `npm run config:stocks -- --rpc URL`: the stock token list of a Robinhood Chain config entry, read
 * from the chain (never typed in). `--help` for options; docs/replica.md describes the output.
 */
import { renameSync, writeFileSync } from "node:fs";
import { JsonRpcProvider, WebSocketProvider, getAddress, type Provider } from "ethers";
import { configPath, readChainConfig } from "./replica/chains";
import { FEE_TIERS, readStockListing, type StockListing } from "./stocks/listing";
import { parseStocksOptions, STOCKS_HELP, StocksUsageError, type StocksOptions } from "./stocks/options";

function connect(url: string): Provider & { destroy(): void } {
  return /^wss?:/.test(url) ? new WebSocketProvider(url) : new JsonRpcProvider(url);
}

/** The entry updated with `listing`; the source line says how and where it was read. */
function withListing(entry: Record<string, unknown>, listing: StockListing, factory: string, from: number) {
  return {
    ...entry,
    stocks: listing.stocks.map((s) => ({
      symbol: s.symbol,
      address: s.address,
      fee: s.fee,
      decimals: s.decimals,
      pool: s.pool,
    })),
    stocksWithoutPool: listing.withoutPool.map((s) => ({
      symbol: s.symbol,
      address: s.address,
      decimals: s.decimals,
    })),
    stocksSource:
      `read from chain ${listing.chainId} by \`npm run config:stocks\`: Deployed events of the stock factory ` +
      `${factory} (blocks ${from}-${listing.readAt.block}), symbol() and decimals() of each token, its USDG ` +
      `pool from the Uniswap v3 factory's getPool at fee tiers ${FEE_TIERS.join("/")} (most USDG held wins)`,
    stocksReadAt: listing.readAt,
  };
}

async function run(options: StocksOptions): Promise<string> {
  const source = options.config ?? configPath();
  const config = readChainConfig(source);
  const provider = connect(options.rpc);
  try {
    const chainId = Number((await provider.getNetwork()).chainId);
    const entry = config.chains[String(chainId)];
    if (!entry) throw new Error(`${source} has no entry for chain ${chainId} (the chain at ${options.rpc})`);
    const missing = (["usdg", "uniswapV3Factory"] as const).filter((field) => !entry[field]);
    if (missing.length > 0) throw new Error(`${source}: chain ${chainId} lacks ${missing.join(", ")}`);
    const factory = options.factory ?? entry.stockFactory;
    if (!factory) {
      throw new Error(`${source}: chain ${chainId} names no stockFactory; pass --factory <address>`);
    }
    const listing = await readStockListing(provider, {
      stockFactory: getAddress(factory),
      usdg: entry.usdg,
      uniswapV3Factory: entry.uniswapV3Factory,
      fromBlock: options.fromBlock,
    });
    const updated = {
      ...config,
      chains: {
        ...config.chains,
        [String(chainId)]: withListing({ ...entry }, listing, getAddress(factory), options.fromBlock),
      },
    };
    // Written beside the target, then renamed over it: a failure never leaves half a config.
    const out = options.out ?? source;
    writeFileSync(`${out}.tmp`, `${JSON.stringify(updated, null, 2)}\n`);
    renameSync(`${out}.tmp`, out);
    return (
      `chain ${chainId} at block ${listing.readAt.block}: ${listing.stocks.length} stock(s) with a USDG pool, ` +
      `${listing.withoutPool.length} without; written to ${out}`
    );
  } finally {
    provider.destroy();
  }
}

async function main(): Promise<void> {
  let options: StocksOptions;
  try {
    options = parseStocksOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof StocksUsageError)) throw error;
    console.error(`config:stocks: ${error.message} (see --help)`);
    process.exit(2);
  }
  if (options.help) {
    process.stdout.write(STOCKS_HELP);
    return;
  }
  try {
    console.log(await run(options));
  } catch (error) {
    const message = ((error as { shortMessage?: string }).shortMessage ?? (error as Error).message).split(
      "\n",
    )[0];
    console.error(`config:stocks: ${message}`);
    process.exit(1);
  }
}

void main();
