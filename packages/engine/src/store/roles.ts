import { sql, type Kysely } from "kysely";
import type { Database } from "./schema";
import { GUARDED_TABLES } from "./schema";

/**
 * PostgreSQL: what the serving role may do, granted by the owner role that migrates. The serving
 * role reads and appends everywhere, changes rows only in the tables that are not append-only (seasons,
 * the followers' event tables, cursors, the writer lock), and owns nothing: only an owner may
 * ALTER, DISABLE or DROP a trigger or drop the function it calls, so the process that answers
 * requests cannot lift append-only. Idempotent; run after every migration (`augur migrate
 * --serving-role`), since a new table is granted nothing by default.
 */
export async function grantServingRole(db: Kysely<Database>, role: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(role)) throw new RangeError(`role names are [a-z0-9_], not '${role}'`);
  const r = sql.id(role);
  const schema = (await sql<{ s: string }>`SELECT current_schema() AS s`.execute(db)).rows[0]!.s;
  const s = sql.id(schema);
  const tables = (
    await sql<{ name: string }>`SELECT tablename AS name FROM pg_tables WHERE schemaname = ${schema}`.execute(
      db,
    )
  ).rows.map((t) => t.name);
  const appendOnly = new Set<string>(GUARDED_TABLES);
  await sql`GRANT USAGE ON SCHEMA ${s} TO ${r}`.execute(db);
  for (const table of tables) {
    const t = sql.table(`${schema}.${table}`);
    await sql`REVOKE ALL ON ${t} FROM ${r}`.execute(db);
    const kysely = table.startsWith("kysely_migration");
    if (kysely) await sql`GRANT SELECT ON ${t} TO ${r}`.execute(db);
    else if (appendOnly.has(table)) await sql`GRANT SELECT, INSERT ON ${t} TO ${r}`.execute(db);
    else await sql`GRANT SELECT, INSERT, UPDATE, DELETE ON ${t} TO ${r}`.execute(db);
  }
  await sql`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${s} TO ${r}`.execute(db);
}
