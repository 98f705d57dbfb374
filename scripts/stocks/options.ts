import { parseArgs } from "node:util";
import { isAddress } from "ethers";

/** A flag the user got wrong: printed as one line with the help hint, exit code 2. */
export class StocksUsageError extends Error {
  override readonly name = "StocksUsageError";
}

export interface StocksOptions {
  readonly rpc: string;
  /** The config read for the chain's addresses; undefined = ROBINHOOD_CONFIG or config/robinhood.json. */
  readonly config: string | undefined;
  /** Where the updated config is written; undefined = over the config read. */
  readonly out: string | undefined;
  /** Overrides the entry's `stockFactory`. */
  readonly factory: string | undefined;
  readonly fromBlock: number;
  readonly help: boolean;
}

export const STOCKS_HELP = `Usage: npm run config:stocks -- --rpc <url> [options]

Reads Robinhood Chain's stock token list from the chain itself and writes it into the chain's
entry of the config (stocks, stocksWithoutPool, stocksReadAt): every token the stock factory
deployed (its Deployed events), each token's symbol and decimals, and its USDG pool from the
Uniswap v3 factory (getPool at fee tiers 100, 500, 3000 and 10000; the pool holding the most
USDG wins). Everything is read at one block, recorded beside the list.

Options:
  --rpc <url>          JSON-RPC endpoint of the chain (http, https, ws or wss); its chain id picks the entry
  --config <file>      config to read addresses from (default: $ROBINHOOD_CONFIG or config/robinhood.json)
  --out <file>         where to write the updated config (default: over --config)
  --factory <address>  the stock factory (default: the entry's stockFactory)
  --from-block <n>     first block to read Deployed events from (default 0)
  --help               this text
`;

export function parseStocksOptions(argv: readonly string[]): StocksOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      options: {
        rpc: { type: "string" },
        config: { type: "string" },
        out: { type: "string" },
        factory: { type: "string" },
        "from-block": { type: "string" },
        help: { type: "boolean" },
      },
    }));
  } catch (error) {
    // Node's parser explains some mistakes over several lines: the first says what is wrong.
    throw new StocksUsageError((error as Error).message.split("\n")[0]!);
  }
  const help = values.help ?? false;
  if (help) return { rpc: "", config: undefined, out: undefined, factory: undefined, fromBlock: 0, help };
  if (values.rpc === undefined) throw new StocksUsageError("--rpc <url> is required");
  if (!/^(https?|wss?):\/\/\S+$/.test(values.rpc)) {
    throw new StocksUsageError(`--rpc must be an http(s) or ws(s) URL, not '${values.rpc}'`);
  }
  if (values.factory !== undefined && !isAddress(values.factory)) {
    throw new StocksUsageError(`--factory must be an address, not '${values.factory}'`);
  }
  const fromText = values["from-block"] ?? "0";
  if (!/^[0-9]+$/.test(fromText) || !Number.isSafeInteger(Number(fromText))) {
    throw new StocksUsageError(`--from-block must be a whole block number, not '${fromText}'`);
  }
  for (const flag of ["config", "out"] as const) {
    if (values[flag] === "") throw new StocksUsageError(`--${flag} must name a file`);
  }
  return {
    rpc: values.rpc,
    config: values.config,
    out: values.out,
    factory: values.factory,
    fromBlock: Number(fromText),
    help,
  };
}
