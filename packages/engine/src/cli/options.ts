import { storeLocation, type StoreLocation } from "../store/location";
import { UsageError } from "./command";

/** The environment variables the engine reads (flags win over them). */
export type Env = Readonly<Record<string, string | undefined>>;

export const STORE_OPTIONS = { "data-dir": { type: "string" } } as const;

export const STORE_HELP = `Store:
  --data-dir <dir>     SQLite data directory (env AUGUR_DATA_DIR; default .data, relative to
                       the working directory); the file is <dir>/augur.sqlite, created if missing
  DATABASE_URL         use this PostgreSQL database instead of SQLite (environment only)`;

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

/** node:util parseArgs, turning its errors into usage errors (exit 2). */
export function parse<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}
