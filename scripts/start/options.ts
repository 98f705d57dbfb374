import { parseArgs } from "node:util";

/** A flag the user got wrong: printed as one line with the help hint, exit code 2. */
export class StartUsageError extends Error {
  override readonly name = "StartUsageError";
}

export interface StartOptions {
  readonly agents: number;
  readonly hourMs: number;
  readonly port: number;
  readonly dataDir: string;
  /** Real seconds; undefined = until SIGINT/SIGTERM. */
  readonly duration: number | undefined;
  readonly ci: boolean;
  readonly help: boolean;
}

export const START_HELP = `Usage: npm start -- [options]

Runs a whole demo season locally: a child \`hardhat node\` with the Robinhood Chain replica,
PriceOracle, CallLedger and AnchorRegistry deployed on it, the engine (SQLite in the data
directory) with its API and site, the keeper, and simulated agents of three creators that
trade on the replica pools, post signed records and commit, reveal and settle calls while
the chain's clock runs one simulated hour every --hour-ms. Ctrl-C stops it cleanly.

Options:
  --agents <n>      demo agents, 2–12 (default 6)
  --hour-ms <ms>    real milliseconds per simulated hour, 100–3600000 (default 3000)
  --port <n>        API and site port (default 8787; 0 picks a free port)
  --data-dir <dir>  where the store, salt vaults and deployment record go
                    (default .data/demo; a previous demo's files there are replaced)
  --duration <s>    stop by itself after this many real seconds (default: until Ctrl-C)
  --ci              quiet: only the addresses and the hourly table (no setup or cycle lines)
  --help            this text
`;

function integer(flag: string, text: string | undefined, fallback: number, min: number, max: number): number {
  if (text === undefined) return fallback;
  if (!/^[0-9]+$/.test(text)) throw new StartUsageError(`${flag} must be a whole number, not '${text}'`);
  const value = Number(text);
  if (value < min || value > max) throw new StartUsageError(`${flag} must be between ${min} and ${max}`);
  return value;
}

export function parseStartOptions(argv: readonly string[]): StartOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      options: {
        agents: { type: "string" },
        "hour-ms": { type: "string" },
        port: { type: "string" },
        "data-dir": { type: "string" },
        duration: { type: "string" },
        ci: { type: "boolean" },
        help: { type: "boolean" },
      },
    }));
  } catch (error) {
    throw new StartUsageError((error as Error).message);
  }
  return {
    agents: integer("--agents", values.agents, 6, 2, 12),
    hourMs: integer("--hour-ms", values["hour-ms"], 3000, 100, 3_600_000),
    port: integer("--port", values.port, 8787, 0, 65535),
    dataDir: values["data-dir"] ?? ".data/demo",
    duration:
      values.duration === undefined ? undefined : integer("--duration", values.duration, 0, 1, 10 ** 7),
    ci: values.ci ?? false,
    help: values.help ?? false,
  };
}
