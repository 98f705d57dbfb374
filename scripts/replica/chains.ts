import { JsonRpcProvider } from "ethers";
import robinhood from "../../config/robinhood.json";

/** One chain's real addresses, as `config/robinhood.json` lists them. */
export interface ChainEntry {
  name: string;
  usdg: string;
  weth: string;
  uniswapV3Factory: string;
  stocks: { symbol: string; address: string; fee: number }[];
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

/** The config entry of `chainId`, refusing loudly when an address it needs is not filled in yet. */
export function chainEntry(chainId: number): ChainEntry {
  const entry = (robinhood.chains as Record<string, ChainEntry | undefined>)[String(chainId)];
  if (!entry) throw new Error(`config/robinhood.json has no entry for chain ${chainId}`);
  const missing = [
    ...(entry.usdg ? [] : ["usdg"]),
    ...(entry.uniswapV3Factory ? [] : ["uniswapV3Factory"]),
    ...(entry.stocks.length > 0 ? [] : ["stocks"]),
  ];
  if (missing.length > 0) {
    throw new Error(
      `config/robinhood.json: chain ${chainId} (${entry.name}) lacks ${missing.join(", ")}; ` +
        "fill them from the official docs to run the replica tests on a fork",
    );
  }
  return entry;
}
