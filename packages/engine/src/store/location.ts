import { resolve, join } from "node:path";

/** Where the store lives: a PostgreSQL URL, or one SQLite file (`:memory:` for tests). */
export type StoreLocation =
  | { readonly kind: "postgres"; readonly url: string; readonly schema?: string }
  | { readonly kind: "sqlite"; readonly file: string };

export const DEFAULT_DATA_DIR = ".data";
export const SQLITE_FILE_NAME = "augur.sqlite";

/** `DATABASE_URL` wins; otherwise `<dataDir>/augur.sqlite`, the data dir relative to cwd. */
export function storeLocation(options: { databaseUrl?: string; dataDir?: string }): StoreLocation {
  if (options.databaseUrl) return { kind: "postgres", url: options.databaseUrl };
  return { kind: "sqlite", file: join(resolve(options.dataDir ?? DEFAULT_DATA_DIR), SQLITE_FILE_NAME) };
}

/** A location safe to print: the PostgreSQL password is replaced by `***`. */
export function describeLocation(location: StoreLocation): string {
  if (location.kind === "sqlite") return location.file;
  try {
    const url = new URL(location.url);
    if (url.password) url.password = "***";
    return url.toString();
  } catch {
    return "postgres://(unparseable URL)";
  }
}
