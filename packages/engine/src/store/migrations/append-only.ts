import { sql, type Kysely, type RawBuilder } from "kysely";
import type { DialectName } from "../dialect";

/**
 * The statements that make `table` append-only in the database itself: UPDATE and DELETE (and,
 * on PostgreSQL, TRUNCATE) abort with a message naming the table, whoever issues them.
 */
export function appendOnlyStatements(dialect: DialectName, table: string): RawBuilder<unknown>[] {
  const t = sql.id(table);
  if (dialect === "sqlite") {
    return (["UPDATE", "DELETE"] as const).map((op) => {
      const name = sql.id(`${table}_refuse_${op.toLowerCase()}`);
      const message = sql.lit(`augur: ${table} is append-only (${op} refused)`);
      return sql`CREATE TRIGGER ${name} BEFORE ${sql.raw(op)} ON ${t} BEGIN SELECT RAISE(ABORT, ${message}); END`;
    });
  }
  return [
    sql`CREATE TRIGGER ${sql.id(`${table}_append_only`)} BEFORE UPDATE OR DELETE ON ${t}
        FOR EACH ROW EXECUTE FUNCTION augur_refuse_change()`,
    sql`CREATE TRIGGER ${sql.id(`${table}_no_truncate`)} BEFORE TRUNCATE ON ${t}
        FOR EACH STATEMENT EXECUTE FUNCTION augur_refuse_change()`,
  ];
}

/** PostgreSQL: the one trigger function every append-only table uses (SQLite needs none). */
export async function createRefuseFunction(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect !== "postgres") return;
  await sql`CREATE OR REPLACE FUNCTION augur_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'augur: % is append-only (% refused)', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'restrict_violation';
    END
  $$`.execute(db);
}
