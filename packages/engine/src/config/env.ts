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
