import { UsageError } from "../config/env";

export const STORE_OPTIONS = { "data-dir": { type: "string" } } as const;

export const STORE_HELP = `Store:
  --data-dir <dir>     SQLite data directory (env AUGUR_DATA_DIR; default .data, relative to
                       the working directory); the file is <dir>/augur.sqlite, created if missing
  DATABASE_URL         use this PostgreSQL database instead of SQLite (environment only)`;

/** node:util parseArgs, turning its errors into usage errors (exit 2). */
export function parse<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}
