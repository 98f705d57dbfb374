import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { merkleRoot, type Hex32 } from "@augur/scorer";
import { appendEngineRecords } from "../store/append";
import { openStore, type Store } from "../store/open";
import { insertSeason } from "../store/queries/seasons";
import {
  benchAgentRecords,
  benchAgentRow,
  benchSeasonRow,
  seedBenchSeason,
  type BenchSeasonShape,
} from "../../test-support/cycle/bench-season";
import { seedBenchSeasonPg } from "../../test-support/cycle/bench-season-pg";
import { TEST_DATABASE_URL } from "../../test-support/store/testing";

const SHAPE: BenchSeasonShape = { agents: 3, hours: 24, start: 1_800_000_000 - (1_800_000_000 % 3600) };

/** Every row the seeder writes, in key order. */
async function tables(store: Store) {
  const db = store.db;
  return {
    seasons: await db.selectFrom("seasons").selectAll().orderBy("id").execute(),
    records: await db.selectFrom("records").selectAll().orderBy("leaf_index").execute(),
    leaves: await db.selectFrom("merkle_leaves").selectAll().orderBy("leaf_index").execute(),
    nodes: await db.selectFrom("merkle_nodes").selectAll().orderBy("level").orderBy("idx").execute(),
    agents: await db.selectFrom("agents").selectAll().orderBy("id").execute(),
  };
}

describe("cycle bench seeder", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "augur-bench-season-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** `bulk`'s rows against the same records appended one agent at a time by appendEngineRecords. */
  async function expectAppendedRows(bulk: Store, written: number) {
    const reference = await openStore({ kind: "sqlite", file: ":memory:" });
    try {
      await insertSeason(reference.db, benchSeasonRow(SHAPE));
      for (let a = 0; a < SHAPE.agents; a++) {
        const records = benchAgentRecords(SHAPE, a);
        await reference.db.transaction().execute(async (trx) => {
          const stored = await appendEngineRecords(trx, records, SHAPE.start);
          await trx
            .insertInto("agents")
            .values(benchAgentRow(SHAPE, records[0]!, stored[0]!.seal))
            .execute();
        });
      }
      const expected = await tables(reference);
      const actual = await tables(bulk);
      expect(actual.records).to.have.length(written);
      expect(written).to.equal(3 * (1 + 24 + 6 + 1 + 2)); // registration, snapshots, decisions, trades, calls
      expect(actual).to.deep.equal(expected);
      const seals = actual.leaves.map((l) => l.seal as Hex32);
      expect(await bulk.log.root(bulk.db, written)).to.equal(merkleRoot(seals));
    } finally {
      await reference.close();
    }
  }

  it("writes exactly the rows appendEngineRecords writes for the same records", async () => {
    const file = join(dir, "bulk.sqlite");
    const lines: string[] = [];
    const written = await seedBenchSeason(file, SHAPE, (line) => lines.push(line));
    expect(lines.at(-1)).to.contain("seeded 3 agents");
    const bulk = await openStore({ kind: "sqlite", file });
    try {
      await expectAppendedRows(bulk, written);
    } finally {
      await bulk.close();
    }
  });

  // Like the store suites (test-support/store/testing.ts): on PostgreSQL when TEST_DATABASE_URL is set.
  if (TEST_DATABASE_URL)
    it("writes the same rows into a PostgreSQL store", async () => {
      const schema = `augur_bench_${randomBytes(6).toString("hex")}`;
      const lines: string[] = [];
      const written = await seedBenchSeasonPg({ url: TEST_DATABASE_URL!, schema }, SHAPE, (line) =>
        lines.push(line),
      );
      expect(lines.at(-1)).to.contain("seeded 3 agents");
      const bulk = await openStore({ kind: "postgres", url: TEST_DATABASE_URL!, schema });
      try {
        await expectAppendedRows(bulk, written);
      } finally {
        await bulk.db.schema.dropSchema(schema).cascade().execute();
        await bulk.close();
      }
    });

  it("continues a stopped seed into exactly the rows of a whole seed", async () => {
    const whole = join(dir, "whole.sqlite");
    const continued = join(dir, "continued.sqlite");
    await seedBenchSeason(whole, SHAPE, () => undefined);
    await seedBenchSeason(continued, { ...SHAPE, agents: 2 }, () => undefined);
    const lines: string[] = [];
    const written = await seedBenchSeason(continued, SHAPE, (line) => lines.push(line));
    expect(lines[0]).to.contain("continuing after 2 agents");
    expect(written).to.equal(3 * 34);
    const [a, b] = [
      await openStore({ kind: "sqlite", file: whole }),
      await openStore({ kind: "sqlite", file: continued }),
    ];
    try {
      expect(await tables(b)).to.deep.equal(await tables(a));
      expect(await b.log.root(b.db, written)).to.equal(await a.log.root(a.db, written));
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("refuses a file that already holds a log other than the first agents of this season", async () => {
    const file = join(dir, "twice.sqlite");
    await seedBenchSeason(file, { ...SHAPE, agents: 1 }, () => undefined);
    const refusal = (shape: BenchSeasonShape) =>
      seedBenchSeason(file, shape, () => undefined).then(
        () => "",
        (e: unknown) => String(e),
      );
    // All its agents already seeded, another season length, another start: nothing is written.
    expect(await refusal({ ...SHAPE, agents: 1 }))
      .to.contain("already holds a log")
      .and.contain("prefix");
    expect(await refusal({ ...SHAPE, agents: 2, hours: 48 })).to.contain("is not 1 agents' records");
    expect(await refusal({ ...SHAPE, agents: 2, start: SHAPE.start + 3600 })).to.contain(
      "not this shape's season",
    );
    const store = await openStore({ kind: "sqlite", file });
    try {
      expect(await store.log.size(store.db)).to.equal(34);
    } finally {
      await store.close();
    }
  });
});
