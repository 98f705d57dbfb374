import { expect } from "chai";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RecordRefusedError } from "@augur/records";
import { AugurError, InvalidInputError } from "@augur/scorer";
import type { Store } from "../store/open";
import { testBackends } from "../../test-support/store/testing";
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
import { checkSubmission, type Submission } from "./ingest-check";
import { ingestRecord, type IngestContext } from "./ingest";
import { IngestPool } from "./ingest-pool";
import { RecordIngestor, storesIn } from "./ingest-queue";
import { buildApp } from "../api/app";

const CRASHING_WORKER = join(__dirname, "..", "..", "test-support", "records", "crashing-ingest-worker.ts");
const ctx: IngestContext = { chainId: TEST_CHAIN_ID, now: () => TEST_NOW, recordGrace: Infinity };

/** What a caller learns from one submission: the stored leaf, or the refusal's status, code and text. */
async function outcome(ingesting: Promise<{ seal: string; leafIndex: number; created: boolean }>) {
  try {
    const { seal, leafIndex, created } = await ingesting;
    return { seal, leafIndex, created };
  } catch (error) {
    const e = error as AugurError & { status?: number };
    expect(e, String(error)).to.be.instanceOf(AugurError);
    return { status: e.status ?? 400, code: e.code, message: e.shortMessage };
  }
}

async function storedLog(store: Store) {
  return store.db.selectFrom("records").select(["leaf_index", "seal"]).orderBy("leaf_index").execute();
}

for (const backend of testBackends()) {
  describe(`the ingest pool on ${backend.name}`, () => {
    let sequence: Submission[];
    let pool: IngestPool;
    const stores: Store[] = [];
    const open = async () => {
      const store = await backend.open();
      stores.push(store);
      await addTestSeason(store);
      return store;
    };

    before(async () => {
      sequence = await orderedSequence();
      const inline = await open();
      const codes = [];
      for (const s of sequence) {
        const answer = await outcome(ingestRecord(inline, s, ctx));
        codes.push("code" in answer ? answer.code : answer.created ? "CREATED" : "KNOWN");
      }
      // As written, the sequence meets each refusal that depends on order.
      expect(codes).to.deep.equal([
        "UNKNOWN_AGENT",
        "CREATED",
        "CREATED",
        "EQUIVOCATION",
        "BEFORE_REGISTRATION",
        "KNOWN",
        "WRONG_SIGNER",
        "BAD_SIGNATURE",
        "INVALID_INPUT",
        "CREATED",
        "CREATED",
        "CREATED",
        "AGENT_EXISTS",
        "CREATED",
      ]);
      await inline.close();
      stores.splice(0);
      pool = new IngestPool(2);
    });
    after(() => pool?.close());
    afterEach(async () => {
      for (const store of stores.splice(0)) await store.close();
    });

    for (const [name, order] of [
      ["as written", (s: Submission[]) => s],
      ["reversed", (s: Submission[]) => [...s].reverse()],
      ["interleaved", (s: Submission[]) => s.map((_, i) => s[(i * 5) % s.length]!)],
    ] as const) {
      it(`gives the log and answers of one-at-a-time ingestion to concurrent submissions, ${name}`, async () => {
        const submissions = order(sequence);
        const inline = await open();
        const expected = [];
        for (const s of submissions) expected.push(await outcome(ingestRecord(inline, s, ctx)));

        const pooled = await open();
        const ingestor = new RecordIngestor(storesIn(pooled, ctx), ctx, pool);
        const answers = await Promise.all(submissions.map((s) => outcome(ingestor.ingest(s))));

        expect(answers).to.deep.equal(expected);
        expect(await storedLog(pooled)).to.deep.equal(await storedLog(inline));
        const codes = new Set(expected.map((e) => ("code" in e ? e.code : "STORED")));
        expect(codes.size, "the sequence exercises several refusals").to.be.at.least(4);
      });
    }

    it("refuses in a worker with the same typed errors as inline checks", async () => {
      for (const s of sequence.slice(7, 9)) {
        const inline = (() => {
          try {
            checkSubmission(s, TEST_CHAIN_ID);
          } catch (error) {
            return error as AugurError;
          }
          throw new Error("expected a refusal");
        })();
        const pooled = await pool.check(s, TEST_CHAIN_ID).then(
          () => expect.fail("expected a refusal"),
          (error: unknown) => error as AugurError,
        );
        expect(pooled.constructor).to.be.oneOf([RecordRefusedError, InvalidInputError]);
        expect(pooled).to.be.instanceOf(
          inline instanceof InvalidInputError ? InvalidInputError : RecordRefusedError,
        );
        expect({ ...pooled, name: undefined }).to.deep.equal({ ...inline, name: undefined });
        expect(pooled.shortMessage).to.equal(inline.shortMessage);
      }
    });
  });
}

describe("the ingest pool's workers", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "augur-pool-"));
    process.env.AUGUR_TEST_CRASH_MARKER = join(dir, "crashed");
  });
  afterEach(() => {
    delete process.env.AUGUR_TEST_CRASH_MARKER;
    rmSync(dir, { recursive: true, force: true });
  });

  it("replaces a worker that stops and runs its job once more: the request is answered", async () => {
    const crashes: Error[] = [];
    const pool = new IngestPool(1, { script: CRASHING_WORKER, onCrash: (e) => crashes.push(e) });
    try {
      const agent = testWallet("agent crash-once");
      const s = await sign("Snapshot", snapshot("crash-once", TEST_NOW), agent);
      const checked = await pool.check(s, TEST_CHAIN_ID);
      expect(checked.signers.signer).to.equal(agent.address.toLowerCase());
      expect(pool.restarts).to.equal(1);
      expect(crashes.map((e) => e.message)).to.deep.equal(["ingest worker exited with code 1"]);
      // The replacement keeps serving.
      expect((await pool.check(s, TEST_CHAIN_ID)).signers.signer).to.equal(agent.address.toLowerCase());
      expect(pool.restarts).to.equal(1);
    } finally {
      await pool.close();
    }
  });

  it("refuses a job that stops two workers with 422 UNCHECKABLE_RECORD, storing nothing, and serves the next", async () => {
    const crashes: Error[] = [];
    const pool = new IngestPool(2, { script: CRASHING_WORKER, onCrash: (e) => crashes.push(e) });
    const store = await testBackends()[0]!.open();
    try {
      await addTestSeason(store);
      const ingestor = new RecordIngestor(storesIn(store, ctx), ctx, pool);
      const agent = testWallet("agent crash-always");
      const bad = await sign("Snapshot", snapshot("crash-always", TEST_NOW), agent);
      const good = await sign("Registration", registration("fine", agent, agent), agent, agent);
      const [refused, stored] = await Promise.all([
        outcome(ingestor.ingest(bad)),
        outcome(ingestor.ingest(good)),
      ]);
      expect(refused).to.deep.equal({
        status: 422,
        code: "UNCHECKABLE_RECORD",
        message: "checking this record stopped two ingest workers: nothing was stored",
      });
      expect(stored).to.include({ leafIndex: 0, created: true });
      expect(pool.restarts).to.equal(2);
      expect(crashes.map((e) => e.message)).to.deep.equal(["worker crash on cue", "worker crash on cue"]);
      expect(await storedLog(store)).to.have.length(1);
    } finally {
      await pool.close();
      await store.close();
    }
  });

  it("close stops the workers and refuses pending and later checks with 503 SHUTTING_DOWN", async () => {
    const pool = new IngestPool(1);
    const agent = testWallet("agent closing");
    const s = await sign("Snapshot", snapshot("closing", TEST_NOW), agent);
    await pool.check(s, TEST_CHAIN_ID); // the worker is up
    const pending = outcome(
      pool.check(s, TEST_CHAIN_ID).then(() => ({ seal: "", leafIndex: -1, created: false })),
    );
    await pool.close();
    const shuttingDown = {
      status: 503,
      code: "SHUTTING_DOWN",
      message: "the server is stopping: nothing was stored, send it again later",
    };
    expect(await pending).to.deep.equal(shuttingDown);
    expect(
      await outcome(pool.check(s, TEST_CHAIN_ID).then(() => ({ seal: "", leafIndex: -1, created: false }))),
    ).to.deep.equal(shuttingDown);
    expect(pool.restarts, "a worker stopped on purpose is no crash").to.equal(0);
  });

  it("an app's close stops its workers (Linux: the process's threads)", async function () {
    if (!existsSync("/proc/self/task")) this.skip();
    const threads = () => readdirSync("/proc/self/task").length;
    const store = await testBackends()[0]!.open();
    try {
      await addTestSeason(store);
      const app = await buildApp({ store, ...ctx }, { ingestWorkers: 1 });
      const agent = testWallet("agent closing app");
      const payload = await sign("Registration", registration("closing", agent, agent), agent, agent);
      const res = await app.inject({ method: "POST", url: "/api/v1/records", payload });
      expect(res.statusCode, res.body).to.equal(201);
      const running = threads();
      await app.close();
      expect(threads(), "the worker's thread is gone").to.be.below(running);
    } finally {
      await store.close();
    }
  });
});
