import { expect } from "chai";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Submission } from "../records/ingest";
import { storesIn } from "../records/ingest-queue";
import type { StoreLocation } from "../store/location";
import { openStore, type Store } from "../store/open";
import { SQLITE_AUTOCHECKPOINT_PAGES } from "../store/checkpoints";
import { sql } from "kysely";
import {
  addTestSeason,
  orderedSequence,
  registration,
  sign,
  snapshot,
  testWallet,
  TEST_CHAIN_ID,
  TEST_NOW,
} from "../../test-support/records/testing";
import { declareWindDown } from "../../test-support/modes/testing";
import { buildApp } from "./app";
import { CHECKPOINT_INTERVAL_MS, RecordWriter } from "./record-writer";
import { WRITER_NICE } from "./record-writer-thread";
import { RECORD_BODY_LIMIT } from "./routes/records";

const CRASHING_WRITER = join(__dirname, "..", "..", "test-support", "api", "crashing-record-writer.ts");

/** Bodies whose answers come from each stage the writer thread took over from the request loop. */
async function refusedBodies(): Promise<string[]> {
  const agent = testWallet("agent beta");
  const good = JSON.stringify(await sign("Snapshot", snapshot("beta", TEST_NOW - 5), agent));
  return [
    "", // the JSON parser: an empty body
    "{", // the JSON parser: malformed
    good.replace('"nav":"1000000000"', '"nav":"1000000000","nav":"5"'), // I-JSON: a key twice
    good.replace(`"takenAt":${TEST_NOW - 5}`, '"takenAt":9007199254740993'), // I-JSON: beyond 2^53
    JSON.stringify({ type: "Snapshot", message: {} }), // the schema: no signature
    JSON.stringify({ ...JSON.parse(good), type: "Nonsense" }), // the schema: an enum
    JSON.stringify({ ...JSON.parse(good), extra: 1 }), // the schema: additional property
    '{"__proto__":{"x":1},"type":"Snapshot"}', // the JSON parser: prototype poisoning
    `{"type":"${"x".repeat(RECORD_BODY_LIMIT)}"}`, // the size limit, on the request loop: 413
    good, // checks and store: 201
    good, // the same again: 200
    // Plain bodies the store or the checks refuse (answered by the thread without its route):
    JSON.stringify(await sign("Snapshot", snapshot("beta", TEST_NOW - 5, "7"), agent)), // 409 EQUIVOCATION
    JSON.stringify(await sign("Snapshot", snapshot("beta", TEST_NOW - 6), testWallet("not beta"))), // 403
    JSON.stringify(await sign("Snapshot", snapshot("nobody", TEST_NOW - 5), agent)), // 404 UNKNOWN_AGENT
  ];
}

interface Answer {
  readonly status: number;
  readonly type: string | undefined;
  readonly body: string;
}

const answerOf = (res: LightMyRequestResponse): Answer => ({
  status: res.statusCode,
  type: res.headers["content-type"] as string,
  body: res.body,
});

function post(app: FastifyInstance, body: string | Submission): Promise<Answer> {
  return app
    .inject({
      method: "POST",
      url: "/api/v1/records",
      headers: { "content-type": "application/json" },
      payload: typeof body === "string" ? body : JSON.stringify(body),
    })
    .then(answerOf);
}

/** A POST with neither a body nor a content type: the schema's refusal. */
function bare(app: FastifyInstance): Promise<Answer> {
  return app.inject({ method: "POST", url: "/api/v1/records" }).then(answerOf);
}

async function storedLog(store: Store) {
  return store.db.selectFrom("records").select(["leaf_index", "seal"]).orderBy("leaf_index").execute();
}

describe("the record writer thread (a file store)", () => {
  let dir: string;
  const stores: Store[] = [];
  const apps: FastifyInstance[] = [];
  let files = 0;
  /** A fresh store, in a file (the writer's) or in memory (the inline reference). */
  const open = async (inFile: boolean) => {
    const location: StoreLocation = {
      kind: "sqlite",
      file: inFile ? join(dir, `augur-${files++}.sqlite`) : ":memory:",
    };
    const store = await openStore(location);
    stores.push(store);
    await addTestSeason(store);
    return store;
  };
  const serve = async (store: Store, ingestWorkers: number) => {
    const app = await buildApp({ store, chainId: TEST_CHAIN_ID, now: () => TEST_NOW }, { ingestWorkers });
    apps.push(app);
    return app;
  };

  before(() => (dir = mkdtempSync(join(tmpdir(), "augur-writer-"))));
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    for (const store of stores.splice(0)) await store.close();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("answers every body byte for byte as the request loop does, from the parser to the store", async () => {
    const agent = testWallet("agent beta");
    const creator = testWallet("creator of beta");
    const reg = await sign(
      "Registration",
      { ...registration("beta", agent, creator), registeredAt: TEST_NOW - 100 },
      agent,
      creator,
    );
    const bodies = [JSON.stringify(reg), ...(await refusedBodies())];
    const inline = await serve(await open(false), 0);
    const written = await serve(await open(true), 1);
    // Then the system winds down: the writer's own guard refuses as the request loop's does.
    const late = JSON.stringify(await sign("Snapshot", snapshot("beta", TEST_NOW - 1), agent));
    const expected = [];
    for (const body of bodies) expected.push(await post(inline, body));
    expected.push(await bare(inline));
    await declareWindDown(stores[0]!, "2027-01-20", TEST_NOW);
    expected.push(await post(inline, late));
    const answers = [];
    for (const body of bodies) answers.push(await post(written, body));
    answers.push(await bare(written));
    await declareWindDown(stores[1]!, "2027-01-20", TEST_NOW);
    answers.push(await post(written, late));
    expect(answers).to.deep.equal(expected);
    expect(new Set(expected.map((a) => a.status))).to.deep.equal(
      new Set([201, 400, 413, 200, 409, 403, 404, 410]),
    );
    expect(expected.filter((a) => a.status === 400)).to.have.length(9);
    if (process.platform === "linux") {
      // With one check thread the writer checks itself: no ingest worker beside it.
      const names = readdirSync("/proc/self/task").map((task) =>
        readFileSync(`/proc/self/task/${task}/comm`, "utf8").trim(),
      );
      expect(names).to.include("augur-writer").and.not.include("augur-check");
    }
  });

  it("stores concurrent submissions in arrival order: the log and answers of one-at-a-time ingestion", async () => {
    const sequence = await orderedSequence();
    const inline = await serve(await open(false), 0);
    const expected = [];
    for (const s of sequence) expected.push(await post(inline, s));
    const store = await open(true);
    // Two checking workers beside the writer (answering out of order); the byte-for-byte test
    // above runs the default of one, the writer thread checking itself.
    const written = await serve(store, 2);
    const autoCheckpoint = async () =>
      (await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(store.db)).rows[0]!
        .wal_autocheckpoint;
    expect(await autoCheckpoint()).to.equal(SQLITE_AUTOCHECKPOINT_PAGES);
    await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(store.db);
    const path = (store.location as { file: string }).file;
    const file = readFileSync(path);
    const answers = await Promise.all(sequence.map((s) => post(written, s)));
    expect(answers).to.deep.equal(expected);
    expect(await storedLog(store)).to.deep.equal(await storedLog(stores[0]!));
    // The request loop's connection reads what the writer's committed (WAL), at once.
    const { seal } = JSON.parse(answers[1]!.body) as { seal: string };
    const read = await written.inject(`/api/v1/records/${seal}`);
    expect(read.statusCode, read.body).to.equal(200);
    if (process.platform === "linux") {
      // The writer (and its ingest workers) run niced: reads on the request loop go first.
      const nices = readdirSync("/proc/self/task").map((task) =>
        Number(readFileSync(`/proc/self/task/${task}/stat`, "utf8").split(") ")[1]!.split(" ")[16]),
      );
      expect(nices.filter((n) => n === WRITER_NICE)).to.have.length.at.least(2);
      expect(
        nices.filter((n) => n === 0),
        "the request loop keeps its priority",
      ).to.not.be.empty;
    }
    // The write-ahead log is checkpointed by the thread, never by the connection that serves
    // (a checkpoint waits for the disk): within an interval or two the commits are in the file.
    expect(await autoCheckpoint(), "the serving connection's own checkpoints are off").to.equal(0);
    const deadline = Date.now() + 10 * CHECKPOINT_INTERVAL_MS;
    while (readFileSync(path).equals(file) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, CHECKPOINT_INTERVAL_MS / 4));
    expect(readFileSync(path).equals(file), "the thread checkpointed").to.equal(false);
    await written.close();
    expect(await autoCheckpoint(), "given back when the thread stops").to.equal(SQLITE_AUTOCHECKPOINT_PAGES);
  });

  it("answers 503 WRITER_RESTARTED when its thread stops, starts another, and close drains the line", async () => {
    const store = await open(true);
    const crashes: Error[] = [];
    const writer = new RecordWriter({
      location: store.location!,
      chainId: TEST_CHAIN_ID,
      ingestWorkers: 0,
      script: CRASHING_WRITER,
      onCrash: (error) => crashes.push(error),
      storeBatch: storesIn(store, { chainId: TEST_CHAIN_ID, now: () => TEST_NOW, recordGrace: Infinity }),
    });
    const agent = testWallet("agent crash-writer");
    const bytes = (s: Submission) => Buffer.from(JSON.stringify(s));
    const reg = bytes(await sign("Registration", registration("crash-writer", agent, agent), agent, agent));
    const crashed = await writer.write(reg, "application/json").then(
      () => expect.fail("the thread should have stopped"),
      (error: { status: number; code: string }) => error,
    );
    expect({ status: crashed.status, code: crashed.code }).to.deep.equal({
      status: 503,
      code: "WRITER_RESTARTED",
    });
    expect(writer.restarts).to.equal(1);
    expect(crashes.map((e) => e.message)).to.deep.equal(["record writer crash on cue"]);
    const fine = testWallet("agent fine");
    const signed = await sign("Registration", registration("fine", fine, fine), fine, fine);
    const snaps = await Promise.all(
      [1, 2, 3].map((k) => sign("Snapshot", snapshot("fine", TEST_NOW - k), fine).then(bytes)),
    );
    const writes = [bytes(signed), ...snaps].map((b) => writer.write(b, "application/json"));
    await writer.close(); // at once: the four pending are answered first, after their commit
    expect((await Promise.all(writes)).map((a) => a.status)).to.deep.equal([201, 201, 201, 201]);
    expect(await storedLog(store)).to.have.length(4);
    const late = await writer.write(bytes(signed), "application/json").catch((e: Error) => e);
    expect(late).to.include({ status: 503, code: "SHUTTING_DOWN" });
  });
});
