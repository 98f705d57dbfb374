import { AugurError } from "@augur/scorer";

/** The store could not be opened or migrated; `details.location` names it (password redacted). */
export class StoreOpenError extends AugurError {
  override readonly name = "StoreOpenError";
  constructor(location: string, problem: string) {
    super("STORE_OPEN", `cannot open store ${location}: ${problem}`, { location });
  }
}

/** The keeper reported an anchor that contradicts the store (another head at that index, or a root the log does not have). */
export class AnchorMismatchError extends AugurError {
  override readonly name = "AnchorMismatchError";
  constructor(anchorIndex: number, problem: string) {
    super("ANCHOR_MISMATCH", `anchor ${anchorIndex}: ${problem}`, { anchorIndex });
  }
}

export class MigrationError extends AugurError {
  override readonly name = "MigrationError";
  constructor(migration: string, problem: string) {
    super("MIGRATION_FAILED", `migration ${migration} failed: ${problem}`, { migration });
  }
}

/** The database refused to change a sealed row (its append-only trigger fired). */
export function isAppendOnlyViolation(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e.message !== "string") return false;
  return (e.code === "SQLITE_CONSTRAINT_TRIGGER" || e.code === "23001") && e.message.includes("append-only");
}

/** A unique or primary-key constraint refused an insert, on either backend. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY")
    return true;
  // SQLite's insert guards (migration 012) refuse an existing key before the index does.
  const message = (error as { message?: unknown } | null)?.message;
  return (
    code === "SQLITE_CONSTRAINT_TRIGGER" && typeof message === "string" && message.includes("existing key")
  );
}
