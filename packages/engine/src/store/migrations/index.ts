import type { Migration, MigrationProvider } from "kysely";
import type { DialectName } from "../dialect";
import { initial } from "./001_initial";

/**
 * Every schema version, in order. A migration is never edited once released: a change is a new
 * entry. Names sort in application order.
 */
export function migrations(dialect: DialectName): Record<string, Migration> {
  return {
    "001_initial": initial(dialect),
  };
}

export function migrationProvider(dialect: DialectName): MigrationProvider {
  return { getMigrations: async () => migrations(dialect) };
}
