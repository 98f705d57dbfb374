import { expect } from "chai";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../api/app";
import { AugurScorer } from "../../cycle/augur-scorer";
import { runCycle } from "../../cycle/run";
import { anchorStep, scoreStep } from "../../cycle/steps";
import { ingestRecord, type Submission } from "../../records/ingest";
import { appendEngineRecords } from "../../store/append";
import { openStore, type Store } from "../../store/open";
import { FakeKeeper } from "../../../test-support/cycle/testing";
import {
  addTestSeason,
  ASSET,
  decision,
  registration,
  sign,
  snapshot,
  testWallet,
  trade,
  TEST_CHAIN_ID,
  TEST_NOW,
} from "../../../test-support/records/testing";
import { testCallRecord } from "../../../test-support/referee/testing";
import { main } from "../main";
import { dependencies } from "./verify";

interface Served {
  inputs: { kind: string; seal: string; leafIndex: number; body: string }[];
}

// A real engine (store, API, cycle) behind a test double of its HTTP client: `dependencies.fetch`
// passes every request through and lets a test rewrite one answer.
describe("augur verify --deep", () => {
  let store: Store;
  let app: FastifyInstance;
  let url = "";
  let rewrite: ((path: string, body: unknown) => unknown) | undefined;

  before(async () => {
    store = await openStore({ kind: "sqlite", file: ":memory:" });
    await addTestSeason(store);
    let now = TEST_NOW;
    app = await buildApp({ store, chainId: TEST_CHAIN_ID, now: () => now });
    url = await app.listen({ port: 0, host: "127.0.0.1" });
    const ingest = (s: Submission) =>
      ingestRecord(store, s, { chainId: TEST_CHAIN_ID, now: () => now, recordGrace: Infinity });
    const creator = testWallet("deep creator");
    for (const [k, id] of ["alpha", "sib"].entries()) {
      const agent = testWallet(`deep ${id}`);
      await ingest(await sign("Registration", registration(id, agent, creator), agent, creator));
      for (const [day, nav] of ["1000000000", "1015000000", "1031000000", "1024000000"].entries()) {
        now = TEST_NOW + day * 86400;
        await ingest(await sign("Snapshot", snapshot(id, now - 60 - k, nav), agent));
        await ingest(await sign("Decision", decision(id, now - 30), agent));
        if (day < 2)
          await ingest(await sign("Decision", { ...decision(id, now - 20), action: "sell" }, agent));
      }
      await ingest(await sign("Trade", trade(id, TEST_NOW + 100), agent));
      await ingest(await sign("Trade", { ...trade(id, TEST_NOW + 5000), side: "sell" }, agent));
      const calls = [1, 2].map((c) =>
        testCallRecord({
          agentId: id,
          seasonId: "s1",
          callId: 10 * k + c,
          asset: ASSET,
          revealedAt: TEST_NOW + c * 3600,
          windowHours: 1,
          direction: "up",
          confidenceBps: 6000,
        }),
      );
      await store.db.transaction().execute((trx) => appendEngineRecords(trx, calls, now));
    }
    const keeper = new FakeKeeper();
    const steps = [anchorStep(keeper), scoreStep(new AugurScorer())];
    now = TEST_NOW + 4 * 86400;
    await runCycle({ store, steps, now: () => now }); // scores both agents
    now += 3600;
    await runCycle({ store, steps, now: () => now }); // alpha's creator input is sib's score now
    await runCycle({ store, steps: [anchorStep(keeper)], now: () => now }); // anchors that score
  });
  after(async () => {
    await app.close();
    await store.close();
  });
  beforeEach(() => {
    rewrite = undefined;
    dependencies.fetch = async (input, init) => {
      const response = await fetch(input, init);
      const path = new URL(String(input)).pathname;
      if (!rewrite || response.status !== 200) return response;
      const body = rewrite(path, await response.json());
      return new Response(JSON.stringify(body), {
        status: 200,
        headers: { "content-type": "application/json" },
      });
    };
  });
  afterEach(() => {
    delete dependencies.fetch;
    delete dependencies.headChecker;
    delete dependencies.remeasure;
  });

  const verify = async (...extra: string[]) => {
    let out = "";
    const stdout = new PassThrough().on("data", (c: Buffer) => (out += c.toString()));
    const io = { stdout, stderr: stdout, stdin: new PassThrough() };
    const code = await main(
      ["verify", "--api", url, "--agent", "alpha", "--season", "s1", "--deep", ...extra],
      io,
    );
    return { code, out };
  };
  const servedInputs = async () =>
    (await (await fetch(`${url}/api/v1/agents/alpha/inputs?season_id=s1`)).json()) as Served;

  it("passes every deep check on an honest score: re-sealed, complete, every value rebuilt, exit 0", async () => {
    const { code, out } = await verify();
    expect(out).not.to.contain("FAILED");
    for (const line of [
      /^deep passed: inputs re-sealed: all 14 inputs hash to their seals/m,
      /^deep passed: completeness against the enumerated log: the 14 input leaves of alpha/m,
      /^deep passed: inputs\.decision_root: /m,
      /^deep passed: inputs\.trade_root: /m,
      /^deep passed: inputs\.call_root: /m,
      /^deep passed: inputs\.snapshot_root: /m,
      /^deep passed: measured\.return: /m,
      /^deep passed: measured\.sigma: /m,
      /^deep passed: measured\.max_drawdown: /m,
      /^deep passed: measured\.exposure: /m,
      /^deep passed: measured\.days: /m,
      /^deep passed: measured\.brier: /m,
      /^deep passed: measured\.dna\.holding_hours: /m,
      /^deep passed: measured\.match: /m,
      /^deep passed: outputs\.multiplier: /m,
      /^deep passed: creator input sib: 0x[0-9a-f]{8}… is sib's sealed score/m,
    ])
      expect(out).to.match(line);
    expect(out).to.match(/^verified: score /m);
    expect(code, out).to.equal(0);
  });

  it("completeness: deleting any one input from the served set fails and names the record", async () => {
    const { inputs } = await servedInputs();
    expect(inputs.map((i) => i.kind)).to.include.members(["snapshot", "decision", "trade", "call"]);
    for (const [k, gone] of inputs.entries()) {
      rewrite = (path, body) => {
        if (path.endsWith("/inputs")) (body as Served).inputs.splice(k, 1);
        return body;
      };
      const { code, out } = await verify();
      expect(code, `${gone.kind} ${k}`).to.equal(1);
      expect(out).to.contain(
        `deep FAILED: completeness against the enumerated log: ${gone.kind} ${gone.seal} (leaf ${gone.leafIndex}) is in the log but missing from the inputs`,
      );
      expect(out).to.match(/^not verified: 0 of 4 steps and \d+ of \d+ deep checks failed$/m);
    }
  });

  it("names an input whose body no longer hashes to its seal, and a root the inputs do not rebuild", async () => {
    const { inputs } = await servedInputs();
    const victim = inputs.find((i) => i.kind === "trade")!;
    rewrite = (path, body) => {
      if (path.endsWith("/inputs"))
        for (const input of (body as Served).inputs)
          if (input.seal === victim.seal) input.body = input.body.replace('"side":"buy"', '"side":"sell"');
      return body;
    };
    const { code, out } = await verify();
    expect(code).to.equal(1);
    expect(out).to.match(
      new RegExp(`^deep FAILED: inputs re-sealed: trade ${victim.seal} \\(leaf \\d+\\) hashes to`, "m"),
    );
    expect(out).to.match(
      /^deep FAILED: inputs\.trade_root: manifest "0x[0-9a-f]{64}", rebuilt from the inputs/m,
    );
    expect(out).to.match(/^deep FAILED: inputs\.trade_count: manifest 2, rebuilt from the inputs 1$/m);
  });

  it("refuses a version-1 manifest: it binds decisions, trades and calls by count only", async () => {
    rewrite = (path, body) => {
      if (path.endsWith("/score")) {
        const row = body as { manifest: Record<string, unknown> };
        delete row.manifest.manifest_version;
      }
      return body;
    };
    const { code, out } = await verify();
    expect(code).to.equal(1);
    expect(out).to.match(
      /^deep FAILED: manifest binds every input: manifest version 1 .* --deep needs version 2$/m,
    );
  });

  it("with --rpc re-measures a sample of snapshots and compares every field; agent-posted ones cannot be", async () => {
    dependencies.headChecker = () => ({ verifyInclusion: async () => true });
    const rpc = ["--rpc", "http://127.0.0.1:1", "--registry", `0x${"11".repeat(20)}`];
    const asked: number[] = [];
    dependencies.remeasure = async (body) => {
      const message = body.message as Record<string, unknown>;
      asked.push(message.takenAt as number);
      return { ...message, nav: asked.length === 2 ? "1" : message.nav };
    };
    const { code, out } = await verify(...rpc, "--remeasure", "2");
    expect(asked).to.have.length(2);
    expect(out).to.match(/^deep passed: snapshot 0x[0-9a-f]{8}… re-measured: 6 fields equal the chain's$/m);
    expect(out).to.match(
      /^deep FAILED: snapshot 0x[0-9a-f]{8}… re-measured: nav: stored "1024000000", chain "1"$/m,
    );
    expect(code).to.equal(1);

    delete dependencies.remeasure;
    const plain = await verify(...rpc);
    expect(plain.out.match(/^deep FAILED: snapshot .* re-measured: agent-posted/gm)).to.have.length(4);
    expect(plain.code).to.equal(1);
    expect((await verify(...rpc, "--remeasure", "0")).code).to.equal(0);
  });

  describe("over many agents (--all-agents, --agent repeated) across --workers", () => {
    /** Runs `augur verify` against `api`; stdout and stderr apart. */
    const verifyMany = async (api: string, ...extra: string[]) => {
      let out = "";
      let err = "";
      const stdout = new PassThrough().on("data", (c: Buffer) => (out += c.toString()));
      const stderr = new PassThrough().on("data", (c: Buffer) => (err += c.toString()));
      const code = await main(["verify", "--api", api, "--season", "s1", ...extra], {
        stdout,
        stderr,
        stdin: new PassThrough(),
      });
      return { code, out, err };
    };

    it("--workers 2 prints what one worker prints, byte for byte, and both report a tampered record", async () => {
      // Worker threads make their own requests: the tampering sits in a proxy before the engine.
      let logPages = 0;
      const proxy: Server = createServer((request, response) => {
        if (request.url!.startsWith("/api/v1/log/leaves")) logPages += 1;
        void (async () => {
          const answer = await fetch(`${url}${request.url}`);
          let body = await answer.text();
          if (request.url!.startsWith("/api/v1/agents/alpha/inputs"))
            body = body.replace(String.raw`\"side\":\"buy\"`, String.raw`\"side\":\"sell\"`);
          response.writeHead(answer.status, { "content-type": "application/json" }).end(body);
        })();
      });
      await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
      const api = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      try {
        const args = ["--all-agents", "--deep", "--workers"];
        const one = await verifyMany(api, ...args, "1");
        expect(logPages, "one thread enumerates the log once for both agents").to.equal(1);
        const two = await verifyMany(api, ...args, "2");
        expect(logPages, "each worker enumerates it once").to.equal(3);
        expect(two.out).to.equal(one.out);
        expect(two.code).to.equal(1);
        expect(one.code).to.equal(1);
        expect(one.err).to.contain("augur verify: 2 agents of season s1, 1 worker(s)");
        expect(two.err).to.contain("augur verify: 2 agents of season s1, 2 worker(s)");
        for (const run of [one, two]) expect(run.err).to.match(/^augur verify: 2 of 2 agents checked$/m);
        const blocks = one.out.split(/^(?=augur verify: agent )/m);
        expect(blocks.map((b) => b.slice(0, 30))).to.deep.equal([
          "augur verify: agent alpha, sea",
          "augur verify: agent sib, seaso",
        ]);
        expect(blocks[0]).to.match(
          /^deep FAILED: inputs re-sealed: trade 0x[0-9a-f]{64} \(leaf \d+\) hashes to/m,
        );
        expect(blocks[0]).to.match(/^not verified: 0 of 4 steps and \d+ of \d+ deep checks failed$/m);
        expect(blocks[1]).not.to.contain("FAILED");
        expect(blocks[1]).to.match(/^verified: score /m);
        expect(one.out).to.match(/\naugur verify: 2 agents: 1 verified, 1 not verified, 0 pending\n$/);
      } finally {
        await new Promise((resolve) => proxy.close(resolve));
      }
    });

    it("an agent the engine cannot answer for fails alone, in one line; the others are verified", async () => {
      const named = ["--agent", "sib", "--agent", "nobody", "--agent", "sib"];
      const { code, out } = await verifyMany(url, ...named, "--workers", "1");
      expect(out).to.match(/^augur verify: agent sib, season s1, seal 0x[0-9a-f]{64}$/m);
      expect(out).to.match(/^augur verify: agent nobody, season s1: not verified: .*HTTP 404/m);
      expect(out.match(/^augur verify: agent sib,/gm)).to.have.length(1);
      expect(out).to.match(/\naugur verify: 2 agents: 1 verified, 1 not verified, 0 pending\n$/);
      expect(code).to.equal(1);
    });

    it("refuses a bad worker count or agent choice in one line, exit 2", async () => {
      for (const extra of [
        ["--all-agents", "--workers", "0"],
        ["--all-agents", "--workers", "abc"],
        ["--all-agents", "--workers", "1.5"],
        ["--all-agents", "--agent", "alpha"],
        [],
        ["--agent", ""],
      ]) {
        const { code, out, err } = await verifyMany(url, ...extra);
        expect(code, extra.join(" ")).to.equal(2);
        expect(out).to.equal("");
        expect(err.trim().split("\n"), extra.join(" ")).to.have.length(1);
      }
      expect((await verifyMany(url, "--all-agents", "--workers", "0")).err).to.equal(
        'augur verify: --workers must be a whole number ≥ 1, not "0"\n',
      );
    });
  });

  it("documents the deep checks and --remeasure in --help", async () => {
    let out = "";
    const stdout = new PassThrough().on("data", (c: Buffer) => (out += c.toString()));
    expect(await main(["verify", "--help"], { stdout, stderr: stdout, stdin: new PassThrough() })).to.equal(
      0,
    );
    for (const text of [
      "--deep",
      "completeness",
      "re-sealed",
      "--remeasure N",
      "inputs_log_size",
      "--oracle ADDRESS",
      "--quoter ADDRESS",
      "pooled totals",
      "--all-agents",
      "--workers N",
      "K of N agents checked",
    ])
      expect(out).to.contain(text);
  });

  it("refuses --remeasure without --rpc, and a bad count, with exit 2", async () => {
    expect((await verify("--remeasure", "3")).code).to.equal(2);
    dependencies.headChecker = () => ({ verifyInclusion: async () => true });
    const rpc = ["--rpc", "http://127.0.0.1:1", "--registry", `0x${"11".repeat(20)}`];
    expect((await verify(...rpc, "--remeasure", "-1")).code).to.equal(2);
    expect((await verify(...rpc, "--remeasure", "1001")).code).to.equal(2);
    expect((await verify("--oracle", `0x${"22".repeat(20)}`)).code, "--oracle without --rpc").to.equal(2);
    expect((await verify(...rpc, "--oracle", "0x22")).code, "not an address").to.equal(2);
    expect((await verify(...rpc, "--remeasure", "0", "--quoter", `0x${"22".repeat(20)}`)).code).to.equal(2);
  });

  it("re-measuring an engine-measured snapshot without --oracle fails in one line naming the flag, exit 1", async () => {
    dependencies.headChecker = () => ({ verifyInclusion: async () => true });
    const rpc = ["--rpc", "http://127.0.0.1:1", "--registry", `0x${"11".repeat(20)}`];
    rewrite = (path, body) => {
      if (path.endsWith("/inputs"))
        for (const input of (body as Served).inputs)
          if (input.kind === "snapshot")
            input.body = JSON.stringify({
              format: "augur-snapshot/v2",
              agentId: "alpha",
              seasonId: "s1",
              wallet: `0x${"33".repeat(20)}`,
              takenAt: TEST_NOW,
              block: { number: 7, hash: `0x${"44".repeat(32)}`, timestamp: TEST_NOW - 2 },
              flowsAfterBlock: 5,
            });
      return body;
    };
    const { code, out } = await verify(...rpc, "--remeasure", "1");
    expect(out).to.match(
      /^deep FAILED: snapshot 0x[0-9a-f]{8}… re-measured: re-measuring needs --oracle ADDRESS \(the PriceOracle/m,
    );
    expect(code).to.equal(1);
  });
});
