import { readFileSync } from "node:fs";
import { getAddress } from "ethers";
import { integerOption, type Env } from "../config/env";
import { IndexerConfigError } from "../indexer/errors";

/** parseArgs options of the stewardship monitor (`augur cycle`). */
export const STEWARDSHIP_OPTIONS = {
  "steward-config": { type: "string" },
  "steward-token": { type: "string" },
  "steward-pools": { type: "string" },
  "steward-usd": { type: "string" },
  "steward-excluded": { type: "string" },
  "steward-start-block": { type: "string" },
  "steward-lp-lock": { type: "string" },
  "steward-lp-position": { type: "string" },
} as const;

export const STEWARDSHIP_HELP = `Stewardship monitor (on when a token is configured; needs the chain flags above):
  --steward-config <file>      JSON { "token", "pools": [], "usd", "excluded": [], "startBlock" }
                               (env AUGUR_STEWARD_CONFIG); a flag or env value below wins over it
  --steward-token <address>    the project token (env AUGUR_STEWARD_TOKEN)
  --steward-pools <a,b,…>      its Uniswap v3 pools against USDG (env AUGUR_STEWARD_POOLS)
  --steward-usd <address>      the USD stablecoin the pools pair with, counted at $1
                               (env AUGUR_STEWARD_USD)
  --steward-excluded <a,b,…>   operator wallets, LP timelock, vesting contract
                               (env AUGUR_STEWARD_EXCLUDED; burn addresses are always excluded)
  --steward-start-block <n>    the token's deployment block: balances are replayed from there
                               (env AUGUR_STEWARD_START_BLOCK; default 0)
  --steward-lp-lock <address>  the LP timelock (LiquidityLock) holding the pool's position
                               (env AUGUR_STEWARD_LP_LOCK); read every day, alarm if it moves
  --steward-lp-position <id>   the locked position's token id (env AUGUR_STEWARD_LP_POSITION)
  Confirmations are the chain's (--confirmations). A daily record is sealed for each UTC day
  once the confirmed chain has passed its midnight.`;

export type StewardshipFlags = { readonly [K in keyof typeof STEWARDSHIP_OPTIONS]?: string };

/** What the monitor follows, every address lowercase. */
export interface StewardshipSettings {
  readonly token: string;
  readonly pools: readonly string[];
  readonly usd: string;
  readonly excluded: readonly string[];
  readonly startBlock: number;
  /** The LP timelock and the position it must hold, when configured. */
  readonly lpLock?: { readonly lock: string; readonly position: string };
}

interface ConfigFile {
  token?: string;
  pools?: string[];
  usd?: string;
  excluded?: string[];
  startBlock?: number;
  lpLock?: string;
  lpPosition?: string;
}

const FILE_KEYS = ["token", "pools", "usd", "excluded", "startBlock", "lpLock", "lpPosition"];

function address(name: string, value: string): string {
  try {
    return getAddress(value.trim()).toLowerCase();
  } catch {
    throw new IndexerConfigError(`${name} must be a 20-byte 0x address, not '${value}'`);
  }
}

function list(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  return text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

function readConfigFile(file: string, read: (file: string) => string): ConfigFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(read(file));
  } catch (error) {
    throw new IndexerConfigError(`--steward-config ${file}: ${(error as Error).message.split("\n")[0]}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new IndexerConfigError(`--steward-config ${file}: must be a JSON object`);
  }
  const extra = Object.keys(parsed).filter((k) => !FILE_KEYS.includes(k));
  if (extra.length > 0) {
    throw new IndexerConfigError(
      `--steward-config ${file}: unknown key '${extra[0]}' (known: ${FILE_KEYS.join(", ")})`,
    );
  }
  const c = parsed as Record<string, unknown>;
  const strings = (key: string) => {
    const v = c[key];
    if (v !== undefined && (!Array.isArray(v) || v.some((s) => typeof s !== "string"))) {
      throw new IndexerConfigError(`--steward-config ${file}: ${key} must be an array of addresses`);
    }
  };
  strings("pools");
  strings("excluded");
  for (const key of ["token", "usd", "lpLock", "lpPosition"]) {
    if (c[key] !== undefined && typeof c[key] !== "string") {
      throw new IndexerConfigError(`--steward-config ${file}: ${key} must be an address string`);
    }
  }
  if (c.startBlock !== undefined && (!Number.isSafeInteger(c.startBlock) || (c.startBlock as number) < 0)) {
    throw new IndexerConfigError(`--steward-config ${file}: startBlock must be a whole number`);
  }
  return c as ConfigFile;
}

/** Whether the flags, environment or a config file configure the monitor at all. */
export function stewardshipConfigured(flags: StewardshipFlags, env: Env): boolean {
  return Boolean(
    flags["steward-config"] ??
      flags["steward-token"] ??
      (env.AUGUR_STEWARD_CONFIG || undefined) ??
      (env.AUGUR_STEWARD_TOKEN || undefined),
  );
}

/**
 * The monitor's settings from flags, then the environment, then the config file (first set
 * wins, field by field). Every address is checked (EIP-55 checksum when mixed case) and
 * lowercased; the token, the USD token and at least one pool are required.
 */
export function stewardshipSettings(
  flags: StewardshipFlags,
  env: Env,
  read: (file: string) => string = (file) => readFileSync(file, "utf8"),
): StewardshipSettings {
  const file = flags["steward-config"] ?? (env.AUGUR_STEWARD_CONFIG || undefined);
  const fromFile: ConfigFile = file ? readConfigFile(file, read) : {};
  const pick = (flag: string | undefined, envValue: string | undefined) =>
    flag ?? (envValue === "" ? undefined : envValue);

  const tokenText = pick(flags["steward-token"], env.AUGUR_STEWARD_TOKEN) ?? fromFile.token;
  if (!tokenText) throw new IndexerConfigError("--steward-token (or the config file's token) is required");
  const token = address("--steward-token", tokenText);
  const usdText = pick(flags["steward-usd"], env.AUGUR_STEWARD_USD) ?? fromFile.usd;
  if (!usdText) throw new IndexerConfigError("--steward-usd (the USDG address) is required");
  const usd = address("--steward-usd", usdText);
  const pools = list(pick(flags["steward-pools"], env.AUGUR_STEWARD_POOLS)) ?? fromFile.pools ?? [];
  if (pools.length === 0) throw new IndexerConfigError("--steward-pools needs at least one pool address");
  const excluded =
    list(pick(flags["steward-excluded"], env.AUGUR_STEWARD_EXCLUDED)) ?? fromFile.excluded ?? [];
  const startText = pick(flags["steward-start-block"], env.AUGUR_STEWARD_START_BLOCK);
  const startBlock =
    startText === undefined
      ? (fromFile.startBlock ?? 0)
      : integerOption("--steward-start-block", startText, 0, 0, 2 ** 48);

  if (token === usd) throw new IndexerConfigError("--steward-usd must differ from --steward-token");
  const lockText = pick(flags["steward-lp-lock"], env.AUGUR_STEWARD_LP_LOCK) ?? fromFile.lpLock;
  const positionText =
    pick(flags["steward-lp-position"], env.AUGUR_STEWARD_LP_POSITION) ?? fromFile.lpPosition;
  if ((lockText === undefined) !== (positionText === undefined))
    throw new IndexerConfigError("--steward-lp-lock and --steward-lp-position go together");
  if (positionText !== undefined && !/^(0|[1-9][0-9]{0,76})$/.test(positionText))
    throw new IndexerConfigError(
      `--steward-lp-position must be a token id (a whole number), not '${positionText}'`,
    );
  return {
    token,
    usd,
    pools: [...new Set(pools.map((p) => address("--steward-pools", p)))],
    excluded: [...new Set(excluded.map((e) => address("--steward-excluded", e)))].sort(),
    startBlock,
    ...(lockText !== undefined && positionText !== undefined
      ? { lpLock: { lock: address("--steward-lp-lock", lockText), position: positionText } }
      : {}),
  };
}
