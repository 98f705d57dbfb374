import { expect } from "chai";
import { sql } from "kysely";
import { isAppendOnlyViolation, isUniqueViolation } from "./errors";
import type { Store } from "./open";
import { FOLD_TABLES, GUARDED_TABLES } from "./schema";
import { testBackends } from "../../test-support/store/testing";
import { attempt, fillEveryTable, SEAL } from "../../test-support/store/sealed-rows";

/** A table's rows as text, in a stable order: what must not change whatever is tried. */
async function contents(store: Store, table: string): Promise<string> {
  const rows = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)}`.execute(store.db);
  return rows.rows
    .map((r) => JSON.stringify(r))
    .sort()
    .join("\n");
}

/** A table's first column and its primary-key constraint (PostgreSQL), for ON CONFLICT forms. */
async function pgKey(store: Store, table: string): Promise<{ constraint: string; column: string }> {
  const row = await sql<{ constraint: string; column: string }>`
    SELECT c.conname AS constraint, a.attname AS column
    FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace
    JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = c.conkey[1]
    WHERE t.relname = ${table} AND n.nspname = current_schema() AND c.contype = 'p'`.execute(store.db);
  return row.rows[0]!;
}

/**
 * Every statement form that could change a sealed row, tried against every sealed table on both
 * backends: each is refused by the database itself and the table's rows stay byte for byte.
 */
for (const backend of testBackends()) {
  describe(`sealed tables on ${backend.name}: every statement form is refused`, () => {
    let store: Store;
    before(async () => {
      store = await backend.open();
      await fillEveryTable(store);
    });
    after(async () => store.close());

    for (const table of GUARDED_TABLES) {
      it(`${table}: no form of UPDATE, DELETE, REPLACE or upsert changes a row`, async () => {
        const before = await contents(store, table);
        expect(before, "the table has a row to protect").to.not.equal("");
        const t = `"${table}"`;
        const forms =
          backend.name === "sqlite"
            ? [
                `INSERT OR REPLACE INTO ${t} SELECT * FROM ${t}`,
                `REPLACE INTO ${t} SELECT * FROM ${t}`,
                `INSERT INTO ${t} SELECT * FROM ${t}`,
                `UPDATE OR REPLACE ${t} SET rowid = rowid`,
                `UPDATE ${t} SET rowid = rowid`,
                `DELETE FROM ${t}`,
              ]
            : await (async () => {
                const { constraint, column } = await pgKey(store, table);
                return [
                  `INSERT INTO ${t} SELECT * FROM ${t} ON CONFLICT ON CONSTRAINT "${constraint}" DO UPDATE SET "${column}" = EXCLUDED."${column}"`,
                  `INSERT INTO ${t} SELECT * FROM ${t}`,
                  `UPDATE ${t} SET "${column}" = "${column}"`,
                  `DELETE FROM ${t}`,
                  `TRUNCATE ${t} CASCADE`,
                ];
              })();
        const keepsFold = backend.name === "sqlite" && (FOLD_TABLES as readonly string[]).includes(table);
        for (const form of forms) {
          const error = await attempt(store, form);
          if (keepsFold && /^(INSERT|REPLACE)/.test(form)) {
            // A fold's existing key is skipped, not refused: the statement succeeds, the old row stays.
            expect(error, form).to.equal(undefined);
            expect(await contents(store, table), form).to.equal(before);
            continue;
          }
          expect(error, form).to.be.instanceOf(Error);
          // A plain duplicate INSERT may meet the unique index first; every other form meets a trigger.
          if (form.startsWith("INSERT INTO") && !form.includes("ON CONFLICT")) {
            expect(
              isUniqueViolation(error) || isAppendOnlyViolation(error),
              `${form}: ${String(error)}`,
            ).to.equal(true);
          } else {
            expect(isAppendOnlyViolation(error), `${form}: ${String(error)}`).to.equal(true);
          }
          expect(await contents(store, table), form).to.equal(before);
        }
      });
    }

    for (const table of FOLD_TABLES) {
      it(`${table}: a fold stored is kept, a forged one for its key is not swapped in, a new key is stored`, async () => {
        const forged = (logSize: number, conflict: string) =>
          `${conflict} INTO "${table}" (agent_id, season_id, log_size, last_leaf_seal, consumed, state, state_seal, created_at)
           VALUES ('a1', 's1', ${logSize}, '${SEAL}', '{}', '{"forged":true}', '0x${"ee".repeat(32)}', 9)`;
        const before = await contents(store, table);
        for (const conflict of backend.name === "sqlite" ? ["INSERT OR REPLACE", "REPLACE"] : []) {
          expect(await attempt(store, forged(1, conflict))).to.equal(undefined);
        }
        const upsert = `${forged(1, "INSERT")} ON CONFLICT (season_id, agent_id, log_size) DO UPDATE SET state = EXCLUDED.state`;
        const upserted = await attempt(store, upsert);
        // SQLite skips the row before the conflict clause runs; PostgreSQL's upsert meets the UPDATE trigger.
        if (backend.name === "sqlite") expect(upserted, upsert).to.equal(undefined);
        else expect(isAppendOnlyViolation(upserted), upsert).to.equal(true);
        expect(await contents(store, table)).to.equal(before);
        expect(await attempt(store, `${forged(2, "INSERT")} ON CONFLICT DO NOTHING`)).to.equal(undefined);
        expect(await contents(store, table)).to.include('"log_size":2');
      });
    }

    it("merkle_leaves: a leaf index other than the leaf count is refused (no gap, no rewrite)", async () => {
      const before = await contents(store, "merkle_leaves");
      for (const index of [1_000_000, 2, 0]) {
        const error = await attempt(
          store,
          `INSERT INTO merkle_leaves (leaf_index, seal, appended_at) VALUES (${index}, '0x${"cd".repeat(32)}', 9)`,
        );
        expect(isAppendOnlyViolation(error), `leaf ${index}: ${String(error)}`).to.equal(true);
      }
      expect(await contents(store, "merkle_leaves")).to.equal(before);
      // The next index is accepted: the guard refuses gaps, not appends.
      await sql`INSERT INTO merkle_leaves (leaf_index, seal, appended_at) VALUES (1, ${`0x${"cd".repeat(32)}`}, 9)`.execute(
        store.db,
      );
      const leaves = await store.db
        .selectFrom("merkle_leaves")
        .select("seal")
        .orderBy("leaf_index")
        .execute();
      expect(leaves.map((l) => l.seal)).to.deep.equal([SEAL, `0x${"cd".repeat(32)}`]);
    });
  });
}
