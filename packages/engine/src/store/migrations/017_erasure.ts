import type { Kysely, Migration } from "kysely";
import type { DialectName } from "../dialect";
import { ERASABLE_TEXTS_TABLE, ERASURES_TABLE } from "../schema";
import { appendOnlyStatements, createRefuseFunction } from "./append-only";

/**
 * Erasable text (docs/engine.md): the free text a sealed body stands for by a salted hash, kept
 * beside it (`erasable_texts`, rows deleted by `augur erase`), and the erasure log (`erasures`:
 * seal, field, date, reason; append-only, names no one), so an erased field stays erased.
 */
export function erasure(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable(ERASABLE_TEXTS_TABLE)
        .addColumn("seal", "text", (c) => c.notNull())
        .addColumn("field", "text", (c) => c.notNull())
        .addColumn("salt", "text", (c) => c.notNull())
        .addColumn("text", "text", (c) => c.notNull())
        .addColumn("stored_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("erasable_texts_pk", ["seal", "field"])
        .execute();
      await db.schema
        .createTable(ERASURES_TABLE)
        .addColumn("seal", "text", (c) => c.notNull())
        .addColumn("field", "text", (c) => c.notNull())
        .addColumn("erased_at", "bigint", (c) => c.notNull())
        .addColumn("reason", "text")
        .addPrimaryKeyConstraint("erasures_pk", ["seal", "field"])
        .execute();
      await createRefuseFunction(db, dialect);
      for (const statement of appendOnlyStatements(dialect, ERASURES_TABLE)) await statement.execute(db);
    },
  };
}
