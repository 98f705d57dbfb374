import { sql, type Kysely, type Migration } from "kysely";
import type { DialectName } from "../dialect";
import { SEALED_TABLES } from "../schema";

/** The existing-key message: `isAppendOnlyViolation` and `isUniqueViolation` both recognise it. */
export const EXISTING_KEY = "INSERT of an existing key refused";

interface UniqueKey {
  readonly columns: string[];
  /** A partial index's WHERE clause, as written in its CREATE INDEX. */
  readonly where?: string;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Every unique key of an SQLite table (primary key, UNIQUE columns, unique indexes, partial ones). */
async function uniqueKeys(db: Kysely<unknown>, table: string): Promise<UniqueKey[]> {
  const keys: UniqueKey[] = [];
  const info = await sql<{
    name: string;
    pk: number;
  }>`SELECT name, pk FROM pragma_table_info(${table})`.execute(db);
  const pk = info.rows.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
  if (pk.length > 0) keys.push({ columns: pk.map((c) => c.name) });
  const indexes = await sql<{ name: string; unique: number; origin: string; partial: number }>`
    SELECT name, "unique", origin, partial FROM pragma_index_list(${table})`.execute(db);
  for (const index of indexes.rows.filter((i) => i.unique === 1 && i.origin !== "pk")) {
    const columns = await sql<{
      name: string;
    }>`SELECT name FROM pragma_index_info(${index.name}) ORDER BY seqno`.execute(db);
    let where: string | undefined;
    if (index.partial === 1) {
      const text = await sql<{
        sql: string;
      }>`SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ${index.name}`.execute(db);
      where = /\bWHERE\b([\s\S]*)$/i.exec(text.rows[0]!.sql)?.[1]?.trim();
      if (!where) throw new Error(`partial index ${index.name} has no readable WHERE clause`);
    }
    keys.push({ columns: columns.rows.map((c) => c.name), ...(where ? { where } : {}) });
  }
  return keys;
}

/**
 * SQLite: `BEFORE INSERT` guards on every sealed table refusing a row whose key (any unique key)
 * already exists. `INSERT OR REPLACE` and `REPLACE` delete the old row without firing its DELETE
 * trigger; the guard fires first, so the old row stays. NULLs never collide, as in the index.
 * `skip` (the folds, migration 025) drops the new row instead of failing the statement.
 */
export async function sqliteGuards(
  db: Kysely<unknown>,
  tables: readonly string[] = SEALED_TABLES,
  onExistingKey: "refuse" | "skip" = "refuse",
): Promise<void> {
  for (const table of tables) {
    const columns = (await sql<{ name: string }>`SELECT name FROM pragma_table_info(${table})`.execute(db))
      .rows;
    // The new row as a one-row table, so a partial index's WHERE clause reads it as written.
    const newRow = `(SELECT ${columns.map((c) => `NEW.${quote(c.name)} AS ${quote(c.name)}`).join(", ")})`;
    const conditions = (await uniqueKeys(db, table)).map(({ columns: key, where }) => {
      const match = key.map((c) => `o.${quote(c)} = NEW.${quote(c)}`).join(" AND ");
      const old = `EXISTS (SELECT 1 FROM ${quote(table)} AS o WHERE ${match}${where ? ` AND (${where.replace(/\b(\w+)\b/g, (w) => (columns.some((c) => c.name === w) ? `o.${quote(w)}` : w))})` : ""})`;
      return where ? `(${old} AND EXISTS (SELECT 1 FROM ${newRow} WHERE ${where}))` : old;
    });
    if (conditions.length === 0) continue;
    const message = `augur: ${table} is append-only (${EXISTING_KEY})`;
    // RAISE(IGNORE) skips this row only: the old row stays and the statement goes on.
    const action = onExistingKey === "refuse" ? `RAISE(ABORT, '${message}')` : "RAISE(IGNORE)";
    const name = onExistingKey === "refuse" ? `${table}_refuse_existing_key` : `${table}_keep_existing_key`;
    await sql
      .raw(
        `CREATE TRIGGER ${quote(name)} BEFORE INSERT ON ${quote(table)}
         WHEN ${conditions.join(" OR ")}
         BEGIN SELECT ${action}; END`,
      )
      .execute(db);
  }
}

/**
 * The log's leaves arrive in order: a leaf's index must be the number of leaves before it (the
 * highest index + 1, which is the count while the log has no gap, read through the primary key).
 */
async function leafOrder(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const next = sql`COALESCE((SELECT MAX(leaf_index) FROM merkle_leaves), -1) + 1`;
  if (dialect === "sqlite") {
    await sql`CREATE TRIGGER merkle_leaves_in_order BEFORE INSERT ON merkle_leaves
      WHEN NEW.leaf_index <> ${next}
      BEGIN SELECT RAISE(ABORT, 'augur: merkle_leaves is append-only (a leaf index must equal the leaf count)'); END`.execute(
      db,
    );
    return;
  }
  await sql`CREATE OR REPLACE FUNCTION augur_leaf_in_order() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.leaf_index <> ${next} THEN
        RAISE EXCEPTION 'augur: merkle_leaves is append-only (a leaf index must equal the leaf count, not %)', NEW.leaf_index
          USING ERRCODE = 'restrict_violation';
      END IF;
      RETURN NEW;
    END
  $$`.execute(db);
  await sql`CREATE TRIGGER merkle_leaves_in_order BEFORE INSERT ON merkle_leaves
    FOR EACH ROW EXECUTE FUNCTION augur_leaf_in_order()`.execute(db);
}

/**
 * Append-only against every statement form, not only UPDATE and DELETE: on SQLite, guards that
 * stop `REPLACE` swapping a sealed row; on both, leaves in index order with no gap. (PostgreSQL
 * has no REPLACE; `ON CONFLICT DO UPDATE` fires the UPDATE trigger. Its DDL is kept from the
 * serving process by roles: see docs/engine.md.)
 */
export function insertGuards(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === "sqlite") await sqliteGuards(db);
      await leafOrder(db, dialect);
    },
  };
}
