import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { erasableText } from "@augur/records";
import { buildApp } from "../api/app";
import { main } from "../cli/main";
import { AugurScorer } from "../cycle/augur-scorer";
import { runCycle } from "../cycle/run";
import { anchorStep, scoreStep } from "../cycle/steps";
import { ingestRecord, type Submission } from "../records/ingest";
import { SQLITE_FILE_NAME } from "../store/location";
import { openStore, type Store } from "../store/open";
import { FakeKeeper } from "../../test-support/cycle/testing";
import { fakeIo } from "../../test-support/cli/testing";
import {
  addTestSeason,
  decision,
  decisionV3,
  registration,
  sign,
  snapshot,
  testWallet,
  trade,
  TEST_CHAIN_ID,
  TEST_NOW,
} from "../../test-support/records/testing";

const AGENTS = ["alpha", "beta"] as const;
/** Personal text an agent wrote into its decisions' notes: a name and a telephone number. */
const personal = (id: string, day: number) =>
  `told Ada Lovelace (+44 20 7946 0${day}${id.length}) about ${id}`;

describe("personal-data erasure requests are honored as the law requires", () => {
  let dir: string;
  let store: Store;
  let app: FastifyInstance;
  let url = "";
  const savedUrl = process.env.DATABASE_URL;
  /** The seals of the decisions with a note, per agent. */
  const noted: Record<string, string[]> = { alpha: [], beta: [] };

  const cli = async (...argv: string[]) => {
    const io = fakeIo();
    const code = await main(argv, io);
    return { code, out: io.out(), err: io.err() };
  };
  const verify = (agent: string) => cli("verify", "--api", url, "--agent", agent, "--season", "s1", "--deep");
  const getJson = async (path: string) => {
    const res = await fetch(`${url}${path}`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const postText = (seal: string, body: object) =>
    fetch(`${url}/api/v1/records/${seal}/texts`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  before(async () => {
    delete process.env.DATABASE_URL;
    dir = mkdtempSync(join(tmpdir(), "augur-erase-"));
    store = await openStore({ kind: "sqlite", file: join(dir, SQLITE_FILE_NAME) });
    await addTestSeason(store);
    let now = TEST_NOW;
    app = await buildApp({ store, chainId: TEST_CHAIN_ID, now: () => now });
    url = await app.listen({ port: 0, host: "127.0.0.1" });
    const ingest = (s: Submission) =>
      ingestRecord(store, s, { chainId: TEST_CHAIN_ID, now: () => now, recordGrace: Infinity });
    const creator = testWallet("erase creator");
    for (const [k, id] of AGENTS.entries()) {
      const agent = testWallet(`erase ${id}`);
      await ingest(await sign("Registration", registration(id, agent, creator), agent, creator));
      for (const [day, nav] of ["1000000000", "1015000000", "1031000000", "1024000000"].entries()) {
        now = TEST_NOW + day * 86400;
        await ingest(await sign("Snapshot", snapshot(id, now - 60 - k, nav), agent));
        const { message, text } = decisionV3(id, now - 30, personal(id, day));
        const { seal } = await ingest(await sign("DecisionV3", message, agent));
        const res = await postText(seal, { field: "note", text: text.text, salt: text.salt });
        expect(res.status, await res.text()).to.equal(201);
        noted[id]!.push(seal);
        if (day < 2)
          await ingest(await sign("Decision", { ...decision(id, now - 20), action: "sell" }, agent));
      }
      await ingest(await sign("Trade", trade(id, TEST_NOW + 100), agent));
    }
    const keeper = new FakeKeeper();
    now = TEST_NOW + 4 * 86400;
    await runCycle({ store, steps: [anchorStep(keeper), scoreStep(new AugurScorer())], now: () => now });
  });
  after(async () => {
    await app.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
    if (savedUrl !== undefined) process.env.DATABASE_URL = savedUrl;
  });

  it("serves each note beside its record, checkable against the sealed hash, and refuses a wrong one", async () => {
    const seal = noted.alpha![0]!;
    const { body } = await getJson(`/api/v1/records/${seal}`);
    const [note] = body.texts as {
      field: string;
      status: string;
      text: string;
      salt: string;
      hash: string;
    }[];
    expect(note).to.include({ field: "note", status: "published", text: personal("alpha", 0) });
    expect(erasableText(note!.text, note!.salt).hash).to.equal(note!.hash);
    expect((body.body as { message: { noteHash: string } }).message.noteHash).to.equal(note!.hash);
    expect(JSON.stringify(body.body)).to.not.include("Ada");
    const wrong = await postText(seal, { field: "note", text: "someone else", salt: note!.salt });
    expect(wrong.status).to.equal(422);
    expect(((await wrong.json()) as { error: { code: string } }).error.code).to.equal("TEXT_MISMATCH");
  });

  it("erases every note: every verification still passes, seals and proofs unchanged, the text gone", async () => {
    const seals = [...noted.alpha!, ...noted.beta!];
    for (const agent of AGENTS) {
      const before = await verify(agent);
      expect(before.code, before.out).to.equal(0);
    }
    const proofs = async () =>
      Promise.all(
        seals.map(async (s) => JSON.stringify((await getJson(`/api/v1/anchors/leaves/${s}`)).body)),
      );
    const bodies = async () =>
      Promise.all(seals.map(async (s) => JSON.stringify((await getJson(`/api/v1/records/${s}`)).body.body)));
    const [proofsBefore, bodiesBefore] = [await proofs(), await bodies()];
    const files = () =>
      [SQLITE_FILE_NAME, `${SQLITE_FILE_NAME}-wal`].map((f) => join(dir, f)).filter(existsSync);
    expect(files().some((file) => readFileSync(file).includes("Lovelace"))).to.equal(true); // before: on disk
    for (const proof of proofsBefore) expect(proof).to.include('"root"');

    for (const seal of seals) {
      const erased = await cli(
        "erase",
        "--seal",
        seal,
        "--field",
        "note",
        "--reason",
        "GDPR art. 17",
        "--data-dir",
        dir,
      );
      expect(erased.code, erased.err).to.equal(0);
      expect(erased.out).to.equal(
        `erased the note of record ${seal}: text and salt deleted; seal and proofs unchanged\n`,
      );
    }

    for (const agent of AGENTS) {
      const after = await verify(agent);
      expect(after.code, after.out).to.equal(0);
      for (const step of [1, 2, 3, 4]) expect(after.out).to.match(new RegExp(`^step ${step} passed`, "m"));
      expect(after.out).to.match(/^deep passed: inputs re-sealed: all \d+ inputs hash to their seals/m);
      expect(after.out).to.not.match(/FAILED/);
    }
    expect(await proofs()).to.deep.equal(proofsBefore);
    expect(await bodies()).to.deep.equal(bodiesBefore);

    const { body } = await getJson(`/api/v1/records/${seals[0]}`);
    expect((body.texts as object[])[0]).to.deep.include({
      field: "note",
      status: "erased",
      text: null,
      salt: null,
    });
    const page = await app.inject({ method: "GET", url: `/records/${seals[0]}` });
    expect(page.statusCode).to.equal(200);
    expect(page.body).to.include("erased on request");
    expect(page.body).to.not.include("Ada");

    // Gone from the database: no row of any table holds it, nor any byte of the files.
    const tables = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table'`.execute(
      store.db,
    );
    for (const { name } of tables.rows) {
      const rows = await sql<object>`SELECT * FROM ${sql.table(name)}`.execute(store.db);
      expect(JSON.stringify(rows.rows), name).to.not.include("Lovelace");
    }
    const { rows: log } = await sql<{
      seal: string;
      field: string;
      reason: string;
    }>`SELECT * FROM erasures`.execute(store.db);
    expect(log).to.have.length(seals.length);
    expect(log[0]).to.include({ field: "note", reason: "GDPR art. 17" });
    for (const file of files()) {
      expect(readFileSync(file).includes("Lovelace"), file).to.equal(false);
    }
  });

  it("refuses with one line an unknown seal, a field the record does not have, and a second erasure", async () => {
    const seal = noted.beta![0]!;
    const unknown = await cli(
      "erase",
      "--seal",
      `0x${"ee".repeat(32)}`,
      "--field",
      "note",
      "--data-dir",
      dir,
    );
    expect([unknown.code, unknown.err]).to.deep.equal([
      1,
      `augur erase: no record has seal 0x${"ee".repeat(32)}\n`,
    ]);
    const field = await cli("erase", "--seal", seal, "--field", "reason", "--data-dir", dir);
    expect(field.code).to.equal(1);
    expect(field.err).to.equal(
      `augur erase: record ${seal} (DecisionV3) has erasable fields note, not 'reason'\n`,
    );
    const again = await cli("erase", "--seal", seal, "--field", "note", "--data-dir", dir);
    expect(again.code).to.equal(1);
    expect(again.err).to.match(
      new RegExp(`^augur erase: the note of record ${seal} was already erased on \\d{4}-\\d\\d-\\d\\d\\n$`),
    );
    const usage = await cli("erase", "--field", "note", "--data-dir", dir);
    expect([usage.code, usage.err]).to.deep.equal([
      2,
      "augur erase: --seal is required (0x + 64 hex digits)\n",
    ]);
    expect((await cli("erase", "--help")).out).to.match(/^Usage: augur erase --seal <seal> --field <name>/);
    // The erased text is never taken back.
    const reposted = await postText(seal, {
      field: "note",
      text: personal("beta", 0),
      salt: `0x${"00".repeat(32)}`,
    });
    expect(reposted.status).to.equal(410);
  });
});
