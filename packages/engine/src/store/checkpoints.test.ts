import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { sql } from "kysely";
import { checkpointPassive, setAutoCheckpoint, SQLITE_AUTOCHECKPOINT_PAGES } from "./checkpoints";
import { openStore, type Store } from "./open";
import { insertSeason } from "./queries/seasons";

const autoCheckpoint = async (store: Store) =>
  (await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(store.db)).rows[0]!
    .wal_autocheckpoint;

describe("store/checkpoints: SQLite's write-ahead log checkpoints, moved between connections", () => {
  let dir: string;
  let file: string;
  let store: Store;
  let other: Store;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "augur-checkpoints-"));
    file = join(dir, "augur.sqlite");
    store = await openStore({ kind: "sqlite", file });
    other = await openStore({ kind: "sqlite", file }, { migrate: false });
  });
  afterEach(async () => {
    await other.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("turns a connection's own checkpoints off and on, and refuses a page count that is not one", async () => {
    expect(await autoCheckpoint(store)).to.equal(SQLITE_AUTOCHECKPOINT_PAGES);
    await setAutoCheckpoint(store, 0);
    expect(await autoCheckpoint(store)).to.equal(0);
    expect(await autoCheckpoint(other), "a setting of one connection only").to.equal(
      SQLITE_AUTOCHECKPOINT_PAGES,
    );
    for (const bad of [-1, 1.5, Number.NaN])
      await setAutoCheckpoint(store, bad).then(
        () => expect.fail(`${bad} accepted`),
        (error: unknown) => expect(error).to.be.instanceOf(RangeError),
      );
    await setAutoCheckpoint(store, SQLITE_AUTOCHECKPOINT_PAGES);
    expect(await autoCheckpoint(store)).to.equal(SQLITE_AUTOCHECKPOINT_PAGES);
  });

  it("copies what one connection committed into the file from another connection", async () => {
    await setAutoCheckpoint(store, 0);
    await checkpointPassive(other);
    const before = readFileSync(file);
    await insertSeason(store.db, {
      id: "s",
      name: "checkpointed",
      starts_at: 0,
      ends_at: 86_400,
      closed_at: null,
      created_at: 0,
    });
    expect(readFileSync(file).equals(before), "a commit writes the log, not the file").to.equal(true);
    const result = await checkpointPassive(other);
    expect(result!.busy).to.equal(false);
    expect(result!.logPages).to.be.greaterThan(0);
    expect(result!.checkpointedPages).to.equal(result!.logPages);
    expect(readFileSync(file).equals(before), "the checkpoint wrote the file").to.equal(false);
  });

  it("does nothing on PostgreSQL, whose server checkpoints", async () => {
    const postgres = { ...store, dialect: "postgres" } as Store;
    expect(await checkpointPassive(postgres)).to.equal(null);
    await setAutoCheckpoint(postgres, 0);
    expect(await autoCheckpoint(store)).to.equal(SQLITE_AUTOCHECKPOINT_PAGES);
  });
});
