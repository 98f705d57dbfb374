import { readFileSync } from "node:fs";
import { join } from "node:path";
import { JsonRpcProvider } from "ethers";

/** A stock token and the fee tier of the USDG pool the tests and the oracle use. */
export interface ListedStock {
  symbol: string;
  address: string;
  fee: number;
  /** Read on chain by `config:stocks` (absent in hand-made entries). */
  decimals?: number;
  pool?: string;
}

/** One chain's real addresses, as `config/robinhood.json` lists them (sources sit beside them there). */
export interface ChainEntry {
  name: string;
  usdg: string;
  weth: string;
  uniswapV3Factory: string;
  /** keccak256 of the pool creation code the factory deploys (CREATE2), as the periphery assumes. */
  poolInitCodeHash?: string;
  quoterV2?: string;
  swapRouter02?: string;
  nonfungiblePositionManager?: string;
  /** Multicall3, at its canonical address where the chain has it (the replica installs its own). */
  multicall3?: string;
  multicall3Source?: string;
  /** The contract whose `Deployed` events list the stock tokens (`config:stocks` reads them). */
  stockFactory?: string;
  stocks: ListedStock[];
  /** The block `stocks` was read at. */
  stocksReadAt?: { block: number; hash: string; timestamp: number } | null;
}

export interface RobinhoodConfig {
  chains: Record<string, ChainEntry | undefined>;
  [other: string]: unknown;
}

/** The committed file; `ROBINHOOD_CONFIG=path` selects another of the same shape (the fork rehearsal's). */
export const DEFAULT_CONFIG_PATH = join(__dirname, "..", "..", "config", "robinhood.json");

export function configPath(): string {
  return process.env.ROBINHOOD_CONFIG || DEFAULT_CONFIG_PATH;
}

export function readChainConfig(path: string = configPath()): RobinhoodConfig {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`cannot read the chain config ${path}: ${(error as Error).message}`);
  }
  const chains = (parsed as { chains?: unknown } | null)?.chains;
  if (typeof chains !== "object" || chains === null) throw new Error(`${path} has no "chains" object`);
  return parsed as RobinhoodConfig;
}

/** The chain a fork was taken from: FORK_CHAIN_ID if given, else asked of FORK_URL. */
export async function forkedChainId(forkUrl: string): Promise<number> {
  if (process.env.FORK_CHAIN_ID) return Number(process.env.FORK_CHAIN_ID);
  const remote = new JsonRpcProvider(forkUrl);
  try {
    return Number(await remote.send("eth_chainId", []));
  } finally {
    remote.destroy();
  }
}

/** The fields fork mode cannot work without, named as in the file. */
export function missingFields(entry: ChainEntry): string[] {
  return [
    ...(entry.usdg ? [] : ["usdg"]),
    ...(entry.uniswapV3Factory ? [] : ["uniswapV3Factory"]),
    ...(entry.poolInitCodeHash ? [] : ["poolInitCodeHash"]),
    ...(entry.stocks.length > 0 ? [] : ["stocks"]),
  ];
}

/** The config entry of `chainId`, refusing loudly when an address it needs is not filled in yet. */
export function chainEntry(chainId: number, path: string = configPath()): ChainEntry {
  const entry = readChainConfig(path).chains[String(chainId)];
  if (!entry) throw new Error(`${path}: no entry for chain ${chainId}`);
  const missing = missingFields(entry);
  if (missing.length > 0) {
    throw new Error(
      `${path}: chain ${chainId} (${entry.name}) lacks ${missing.join(", ")}; ` +
        "fill addresses from the official docs, and stocks with `npm run config:stocks -- --rpc URL`, " +
        "to run the replica tests on a fork",
    );
  }
  return entry;
}
