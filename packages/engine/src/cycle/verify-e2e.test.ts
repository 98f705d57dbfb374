import { PassThrough } from "node:stream";
import { expect } from "chai";
import { sql } from "kysely";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../api/app";
import { main } from "../cli/main";
import { type Submission } from "../records/ingest";
import {
  addTestSeason,
  decision,
  registration,
  sign,
  snapshot,
  testWallet,
  trade,
  TEST_CHAIN_ID,
  TEST_NOW,
} from "../../test-support/records/testing";
import { openStore, type Store } from "../store/open";
import { AugurScorer } from "./augur-scorer";
import { runCycle } from "./run";
import { anchorStep, scoreStep } from "./steps";
import { FakeKeeper } from "../../test-support/cycle/testing";

async function verify(url: string): Promise<{ code: number; out: string }> {
  const stdout = new PassThrough();
  let out = "";
  stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  const io = { stdout, stderr: stdout, stdin: new PassThrough() };
  const code = await main(["verify", "--api", url, "--agent", "alpha", "--season", "s1"], io);
  return { code, out };
}

describe("end to end: signed records over HTTP → cycle → augur verify", () => {
  let store: Store;
  let app: FastifyInstance;
  let url: string;
  let now = TEST_NOW;

  before(async () => {
    store = await openStore({ kind: "sqlite", file: ":memory:" });
    await addTestSeason(store);
    app = await buildApp({ store, chainId: TEST_CHAIN_ID, now: () => now });
    url = await app.listen({ port: 0, host: "127.0.0.1" });
    const post = async (s: Submission) => {
      const res = await fetch(`${url}/api/v1/records`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(s),
      });
      expect(res.status, await res.clone().text()).to.equal(201);
    };
    const agent = testWallet("e2e agent");
    const creator = testWallet("e2e creator");
    // Every record is posted when it is made (the server's grace is the default 10 minutes).
    const registeredAt = TEST_NOW - 100;
    await post(
      await sign("Registration", { ...registration("alpha", agent, creator), registeredAt }, agent, creator),
    );
    for (const [day, nav] of ["1000000000", "1015000000", "1031000000", "1024000000"].entries()) {
      now = TEST_NOW + day * 86400;
      await post(await sign("Snapshot", snapshot("alpha", now - 60, nav), agent));
      await post(await sign("Decision", decision("alpha", now - 30), agent));
      if (day < 2)
        await post(await sign("Decision", { ...decision("alpha", now - 20), action: "sell" }, agent));
      if (day === 0) await post(await sign("Trade", trade("alpha", now - 10), agent));
    }
    now = TEST_NOW + 4 * 86400;
    const keeper = new FakeKeeper();
    // One pass: anchors the inputs, scores, appends the manifest and anchors it (no second pass).
    await runCycle({ store, steps: [anchorStep(keeper), scoreStep(new AugurScorer())], now: () => now });
  });
  after(async () => {
    await app.close();
    await store.close();
  });

  it("passes all four verification steps for a scored agent", async () => {
    const { code, out } = await verify(url);
    expect(code, out).to.equal(0);
    for (const step of [1, 2, 3, 4]) expect(out).to.match(new RegExp(`^step ${step} passed`, "m"));
    expect(out).to.match(/^verified: score \d+(\.\d)?$/m);
  });

  it("fails once a stored manifest is tampered with (after forcing past the append-only trigger)", async () => {
    await sql`DROP TRIGGER records_refuse_update`.execute(store.db);
    await sql`UPDATE records SET body = replace(body, '"snapshot_count":4', '"snapshot_count":5') WHERE kind = 'score'`.execute(
      store.db,
    );
    const { code, out } = await verify(url);
    expect(code, out).to.equal(1);
    expect(out).to.match(/^step 1 FAILED: sha256\(manifest\)/m);
    expect(out).to.match(/^not verified: 1 of 4 steps failed$/m);
  });
});
