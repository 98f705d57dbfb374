import { parseArgs, type ParseArgsConfig } from "node:util";
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

/**
 * The command line of a command on the store: `options` plus --data-dir, strict, positionals
 * allowed (its action); a bad flag is a usage error.
 */
export function parseStoreCommand<O extends NonNullable<ParseArgsConfig["options"]>>(
  argv: string[],
  options: O,
) {
  return parse(() =>
    parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: { ...STORE_OPTIONS, ...options },
    }),
  );
}

/** The one positional, which must be one of `actions`; anything else is a usage error. */
export function actionOf<A extends string>(positionals: readonly string[], actions: readonly A[]): A {
  const [action, ...extra] = positionals;
  if (!(actions as readonly string[]).includes(action ?? "") || extra.length > 0) {
    throw new UsageError(
      actions.length === 1 ? `expected: ${actions[0]}` : `expected one of: ${actions.join(", ")}`,
    );
  }
  return action as A;
}

/** `--workers N` (`augur score`, `augur verify`): a whole number ≥ 1, `fallback` when absent. */
export function workersOption(text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!/^[0-9]+$/.test(text) || !Number.isSafeInteger(n) || n < 1)
    throw new UsageError(`--workers must be a whole number ≥ 1, not "${text}"`);
  return n;
}
