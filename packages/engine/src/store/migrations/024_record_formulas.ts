import type { Kysely, Migration } from "kysely";
import type { DialectName } from "../dialect";
import { RECORD_FORMULAS_TABLE } from "../schema";
import { appendOnlyStatements, createRefuseFunction } from "./append-only";
import { sqliteGuards } from "./012_insert_guards";

/**
 * A score manifest carries its formula (1.9 KB of its 3.0 KB, the same in every manifest of a
 * formula version): stored once here under the sha256 of its canonical text, named by the
 * record's `formula_seal`, the record keeping the rest (store/record-bodies.ts). Rows stored
 * before keep a null `formula_seal` and their whole text. Adding a nullable column rewrites no
 * row on either backend.
 */
export function recordFormulas(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable(RECORD_FORMULAS_TABLE)
        .addColumn("seal", "text", (c) => c.primaryKey())
        .addColumn("text", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .alterTable("records")
        .addColumn("formula_seal", "text", (c) => c.references(`${RECORD_FORMULAS_TABLE}.seal`))
        .execute();
      await createRefuseFunction(db, dialect);
      for (const statement of appendOnlyStatements(dialect, RECORD_FORMULAS_TABLE))
        await statement.execute(db);
      if (dialect === "sqlite") await sqliteGuards(db, [RECORD_FORMULAS_TABLE]);
    },
  };
}
