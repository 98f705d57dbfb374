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
  /** Real seconds once the demo is up; undefined = until SIGINT/SIGTERM. */
  readonly duration: number | undefined;
  /** Simulated hours per season; when one ends, the next opens. */
  readonly seasonHours: number;
  readonly ci: boolean;
  readonly verbose: boolean;
  readonly help: boolean;
}

/** 28 days, the length of a real season. */
export const DEFAULT_SEASON_HOURS = 28 * 24;

export const START_HELP = `Usage: npm start -- [options]

Runs a whole demo season locally: a child \`hardhat node\` with the Robinhood Chain replica,
PriceOracle, CallLedger and AnchorRegistry deployed on it, the engine (SQLite in the data
directory) with its API and site, the keeper, and simulated agents of three creators that
trade on the replica pools, post signed records and commit, reveal and settle calls while
the chain's clock runs one simulated hour every --hour-ms. When a season ends, its last
scores are sealed and the agents register for the next one; it runs until Ctrl-C, which
stops it cleanly. Once it is up it prints the commands to verify a score, run a Hardhat task
against its chain and register an agent of your own (docs/start.md).

Options:
  --agents <n>      demo agents, 2–12 (default 6)
  --hour-ms <ms>    real milliseconds per simulated hour, 100–3600000 (default 3000)
  --port <n>        API and site port (default 8787; 0 picks a free port)
  --data-dir <dir>  where the store, salt vaults and deployment record go
                    (default .data/demo; a previous demo's files there are replaced)
  --duration <s>    stop by itself this many real seconds after the demo is up
                    (default: until Ctrl-C)
  --season-hours <n>
                    simulated hours per season, 1–8760 (default 672: 28 days)
  --ci              quiet: only the addresses, the commands and the hourly table
  --verbose         also every cycle and keeper step (about 20 lines a simulated hour)
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
        "season-hours": { type: "string" },
        ci: { type: "boolean" },
        verbose: { type: "boolean" },
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
    seasonHours: integer("--season-hours", values["season-hours"], DEFAULT_SEASON_HOURS, 1, 8760),
    ci: values.ci ?? false,
    verbose: values.verbose ?? false,
    help: values.help ?? false,
  };
}
