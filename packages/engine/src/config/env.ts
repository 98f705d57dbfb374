import { AugurError } from "@augur/scorer";
import { storeLocation, type StoreLocation } from "../store/location";

/**
 * The one home of the engine's configuration parsing: every environment variable and flag value
 * the CLI, the keeper and the stewardship monitor read is turned into a typed value here.
 */

/** The environment variables the engine reads (flags win over them). */
export type Env = Readonly<Record<string, string | undefined>>;

/** A bad flag or environment value: the CLI answers with exit code 2 and this one line. */
export class UsageError extends AugurError {
  override readonly name = "UsageError";
  constructor(message: string) {
    super("USAGE", message);
  }
}

/** Where the store is: DATABASE_URL (PostgreSQL), else --data-dir / AUGUR_DATA_DIR (SQLite). */
export function storeFrom(values: { "data-dir"?: string }, env: Env): StoreLocation {
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new UsageError("DATABASE_URL must start with postgres:// or postgresql://");
  }
  return storeLocation({ databaseUrl, dataDir: values["data-dir"] ?? (env.AUGUR_DATA_DIR || undefined) });
}

/** An integer flag (or env value) inside [min, max]. */
export function integerOption(
  name: string,
  text: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (text === undefined || text === "") return fallback;
  if (!/^-?[0-9]+$/.test(text)) throw new UsageError(`${name} must be an integer, not '${text}'`);
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(`${name} must be between ${min} and ${max}, not ${text}`);
  }
  return value;
}

/** The chain flags the keeper and the stewardship monitor share. */
export interface ChainFlags {
  readonly rpc?: string;
  readonly confirmations?: string;
}

/** --rpc / AUGUR_RPC_URL as given, trimmed ("" when unset; each reader says what it needs). */
export function rpcOption(flags: ChainFlags, env: Env): string {
  return (flags.rpc ?? env.AUGUR_RPC_URL ?? "").trim();
}

/** --confirmations / AUGUR_CONFIRMATIONS: blocks an event must be under to count, 1 = mined. */
export function confirmationsOption(flags: ChainFlags, env: Env): number {
  return integerOption("--confirmations", flags.confirmations ?? env.AUGUR_CONFIRMATIONS, 1, 1, 1000);
}

/** What one HTTP server lets a client hold (all times in milliseconds). */
export interface ServerLimits {
  /** Whole header block received within this, else 408 and the socket is closed (slowloris). */
  readonly headersTimeoutMs: number;
  /** Whole request, headers and body, received within this (a body declared and never sent). */
  readonly requestTimeoutMs: number;
  /** An idle keep-alive socket is closed after this. */
  readonly keepAliveTimeoutMs: number;
  /** A socket with no traffic at all is closed after this. */
  readonly idleTimeoutMs: number;
  /** Sockets beyond this many open ones are closed on arrival. */
  readonly maxConnections: number;
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 60_000,
  maxConnections: 1_000,
};

/** The server-limit flags `augur serve` takes, by flag name (the env variable is AUGUR_ + upper snake). */
export const SERVER_LIMIT_FLAGS = {
  "headers-timeout-ms": "headersTimeoutMs",
  "request-timeout-ms": "requestTimeoutMs",
  "keep-alive-timeout-ms": "keepAliveTimeoutMs",
  "idle-timeout-ms": "idleTimeoutMs",
  "max-connections": "maxConnections",
} as const satisfies Record<string, keyof ServerLimits>;

type ServerLimitFlags = Partial<Record<keyof typeof SERVER_LIMIT_FLAGS, string>>;

/** Those flags as parseArgs options. */
export const SERVER_LIMIT_OPTIONS = Object.fromEntries(
  Object.keys(SERVER_LIMIT_FLAGS).map((flag) => [flag, { type: "string" }]),
) as { readonly [K in keyof typeof SERVER_LIMIT_FLAGS]: { type: "string" } };

/** --headers-timeout-ms … --max-connections, or AUGUR_HEADERS_TIMEOUT_MS …, else the defaults. */
export function serverLimitsOption(flags: ServerLimitFlags, env: Env): ServerLimits {
  const limits = { ...DEFAULT_SERVER_LIMITS };
  for (const [flag, key] of Object.entries(SERVER_LIMIT_FLAGS) as [
    keyof ServerLimitFlags,
    keyof ServerLimits,
  ][]) {
    const envName = `AUGUR_${flag.replace(/-/g, "_").toUpperCase()}`;
    const max = key === "maxConnections" ? 1_000_000 : 3_600_000;
    limits[key] = integerOption(`--${flag}`, flags[flag] ?? env[envName], DEFAULT_SERVER_LIMITS[key], 1, max);
  }
  // Node refuses a header deadline past the whole request's.
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw new UsageError(
      `--headers-timeout-ms (${limits.headersTimeoutMs}) must not exceed --request-timeout-ms (${limits.requestTimeoutMs})`,
    );
  }
  return limits;
}

/**
 * --public-origin / AUGUR_PUBLIC_ORIGIN: the scheme, host and port readers reach the engine at
 * (behind a proxy, say), printed in the site's URLs; undefined when unset (the listen address).
 */
export function publicOriginOption(flag: string | undefined, env: Env): string | undefined {
  const text = (flag ?? env.AUGUR_PUBLIC_ORIGIN ?? "").trim();
  if (text === "") return undefined;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.origin + "/" !== url.href.replace(/\/?$/, "/")) {
    throw new UsageError(
      `--public-origin must be an http(s) origin such as https://augur.example, not '${text}'`,
    );
  }
  return url.origin;
}

/** `AUGUR_ASSETS` / `--assets`: `TICKER=0xaddress,…`, the tickers the API and site show for addresses. */
export function assetsOption(text: string | undefined): Record<string, string> {
  const assets: Record<string, string> = {};
  for (const entry of (text ?? "").split(",").map((e) => e.trim())) {
    if (entry === "") continue;
    const match = /^([A-Z][A-Z0-9.]{0,9})=(0x[0-9a-fA-F]{40})$/.exec(entry);
    if (!match)
      throw new UsageError(`--assets entries are TICKER=0xaddress (e.g. META=0xc74f…), not '${entry}'`);
    if (match[1]! in assets) throw new UsageError(`--assets names ${match[1]} twice`);
    assets[match[1]!] = match[2]!.toLowerCase();
  }
  return assets;
}

/**
 * `AUGUR_CREATORS` / `--creators`: `NAME=0xaddress,…`, the names the API and site show for creator
 * addresses (display only: the protocol has no creator name, so none enters a seal or a score).
 */
export function creatorsOption(text: string | undefined): Record<string, string> {
  const creators: Record<string, string> = {};
  const named = new Map<string, string>();
  for (const entry of (text ?? "").split(",").map((e) => e.trim())) {
    if (entry === "") continue;
    const match = /^([A-Za-z0-9._-](?:[A-Za-z0-9 ._-]{0,30}[A-Za-z0-9._-])?)=(0x[0-9a-fA-F]{40})$/.exec(
      entry,
    );
    if (!match)
      throw new UsageError(
        `--creators entries are NAME=0xaddress (letters, digits, space, ".-_", 1–32 characters), not '${entry}'`,
      );
    const name = match[1]!;
    const address = match[2]!.toLowerCase();
    if (name in creators) throw new UsageError(`--creators names ${name} twice`);
    const other = named.get(address);
    if (other !== undefined) throw new UsageError(`--creators names ${address} twice (${other} and ${name})`);
    creators[name] = address;
    named.set(address, name);
  }
  return creators;
}
