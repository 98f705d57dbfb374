import { expect } from "chai";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import type { Hex32 } from "@augur/scorer";
import { recordedEngine, type Responses } from "../../../test-support/verify/testing";
import { main } from "../main";
import { dependencies } from "./verify";

// Recorded engine responses (verify/testing.ts), served by a stub HTTP server on 127.0.0.1.

function capture() {
  let out = "";
  let err = "";
  const stdout = new PassThrough().on("data", (c: Buffer) => (out += c.toString()));
  const stderr = new PassThrough().on("data", (c: Buffer) => (err += c.toString()));
  return { io: { stdout, stderr, stdin: new PassThrough() }, out: () => out, err: () => err };
}

describe("augur verify", () => {
  let server: Server;
  let responses: Responses = new Map();
  let api = "";
  before(async () => {
    server = createServer((req, res) => {
      const hit = responses.get(req.url ?? "");
      res.writeHead(hit?.status ?? 404, { "content-type": "application/json" });
      res.end(JSON.stringify(hit?.body ?? { error: { code: "NOT_FOUND", message: "not found" } }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  afterEach(() => {
    delete dependencies.headChecker;
    delete dependencies.pollMs;
  });

  const runAt = async (base: string, ...extra: string[]) => {
    const c = capture();
    const code = await main(["verify", "--api", base, "--agent", "me", "--season", "s1", ...extra], c.io);
    return { code, out: c.out(), err: c.err() };
  };
  const run = (...extra: string[]) => runAt(api, ...extra);
  const scoreBody = (engine: ReturnType<typeof recordedEngine>) =>
    engine.responses.get("/api/v1/agents/me/score?season_id=s1")!.body as { anchor: { status: string } };

  it("passes all four steps on an honest, anchored score and exits 0", async () => {
    const engine = recordedEngine();
    responses = engine.responses;
    const { code, out } = await run();
    expect(out).to.contain("step 1 passed: sha256(manifest) equals the seal");
    expect(out).to.contain("step 2 passed: 3 of 3 input seals sit in mined anchors");
    expect(out).to.contain("first snapshot");
    expect(out).to.contain("creator input sib");
    expect(out).to.match(/step 3 passed: augur-score\/v1 reproduces all \d+ checked values/);
    expect(out).to.match(
      /step 4 passed: score seal 0x[0-9a-f]{8}… at leaf 7, anchor 1 \(tree 9\), a later anchor/,
    );
    expect(out).to.contain(`verified: score ${engine.row.score}`);
    expect(code).to.equal(0);
  });

  it("also accepts the manifest served as its canonical text, hashing it as served", async () => {
    responses = recordedEngine({ manifestAsText: true }).responses;
    const { code, out } = await run();
    expect(out).to.contain("step 1 passed");
    expect(code).to.equal(0);
  });

  it("fails step 1 on a tampered manifest and exits 1", async () => {
    const engine = recordedEngine();
    const served = engine.responses.get("/api/v1/agents/me/score?season_id=s1")!.body as {
      manifest: { outputs: { score: number } };
    };
    served.manifest = JSON.parse(JSON.stringify(served.manifest));
    served.manifest.outputs.score += 10;
    responses = engine.responses;
    const { code, out } = await run();
    expect(out).to.match(/step 1 FAILED: sha256\(manifest\) is 0x[0-9a-f]{8}…, the seal is/);
    expect(out).to.contain("step 3 FAILED");
    expect(out).to.contain("outputs.score: manifest");
    expect(out).to.contain("not verified: 2 of 4 steps failed");
    expect(code).to.equal(1);
  });

  it("fails step 2 when an input seal is not anchored, or its proof does not lead to the root", async () => {
    const engine = recordedEngine();
    engine.responses.delete(`/api/v1/anchors/leaves/${engine.creatorSeal}`);
    const last = engine.responses.get(`/api/v1/anchors/leaves/${engine.snapshotSeals[3]}`)!.body as {
      proof: { hashes: Hex32[] };
    };
    last.proof.hashes = [...last.proof.hashes].reverse();
    responses = engine.responses;
    const { code, out } = await run();
    expect(out).to.contain("step 2 FAILED: 1 of 3 input seals sit in mined anchors");
    expect(out).to.match(/creator input sib 0x[0-9a-f]{8}…: not in a mined anchor \(404: not found\)/);
    expect(out).to.contain("the inclusion proof does not lead to the anchor's root");
    expect(code).to.equal(1);
  });

  it("fails step 4 when the score sits in the same anchor as its inputs", async () => {
    responses = recordedEngine({ scoreInFirstAnchor: true }).responses;
    const { code, out } = await run();
    expect(out).to.contain("step 2 passed");
    expect(out).to.contain("step 4 FAILED");
    expect(out).to.contain("does not join a later anchor than 3 of its inputs");
    expect(code).to.equal(1);
  });

  it("checks every head on chain with --rpc/--registry, failing when the registry denies one", async () => {
    responses = recordedEngine().responses;
    const asked: { seal: Hex32; leafIndex: number; treeSize: number }[] = [];
    let deny: Hex32 | null = null;
    dependencies.headChecker = () => ({
      async verifyInclusion(s, leafIndex, treeSize) {
        asked.push({ seal: s, leafIndex, treeSize });
        return s !== deny;
      },
    });
    const registry = [
      "--rpc",
      "http://127.0.0.1:1",
      "--registry",
      "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    ];
    const ok = await run(...registry);
    expect(ok.code).to.equal(0);
    expect(ok.out).to.contain("heads checked on chain");
    expect(asked.map((a) => a.leafIndex)).to.deep.equal([0, 3, 5, 7]);

    deny = asked[0]!.seal;
    const denied = await run(...registry);
    expect(denied.code).to.equal(1);
    expect(denied.out).to.contain("AnchorRegistry does not confirm this head");
  });

  it("exits 2 on bad arguments and 1, in one line, when the score cannot be fetched", async () => {
    const c = capture();
    expect(await main(["verify", "--api", api, "--agent", "me"], c.io)).to.equal(2);
    expect(c.err()).to.equal("augur verify: --api, --agent and --season are required\n");
    expect((await run("--rpc", "http://127.0.0.1:1")).code).to.equal(2);
    expect((await run("--rpc", "http://x", "--registry", "0x12")).err).to.contain(
      "--registry must be an address",
    );

    responses = new Map();
    const missing = await run();
    expect(missing.code).to.equal(1);
    expect(missing.err).to.match(
      /^augur verify: http:\/\/127\.0\.0\.1:\d+\/api\/v1\/agents\/me\/score\?season_id=s1: HTTP 404 \(not found\)\n$/,
    );
  });
  it("takes the engine's origin or the …/api/v1 base that npm start prints", async () => {
    responses = recordedEngine().responses;
    for (const base of [api, `${api}/`, `${api}/api/v1`, `${api}/api/v1/`]) {
      const { code, out } = await runAt(base);
      expect(code, `${base}: ${out}`).to.equal(0);
    }
    expect((await runAt(`${api}/api/v1?x=1`)).err).to.contain("--api takes no query or fragment");
    expect((await runAt("ftp://example.org")).code).to.equal(2);
  });

  it("reports a score whose anchor is not mined yet as pending, exit 3", async () => {
    const engine = recordedEngine();
    scoreBody(engine).anchor = { status: "pending" };
    responses = engine.responses;
    const { code, out } = await run();
    expect(out).to.contain("step 1 passed");
    expect(out).to.contain("step 2 passed");
    expect(out).to.contain("step 3 passed");
    expect(out).to.match(
      /^step 4 pending: score seal 0x[0-9a-f]{8}… is not anchored yet: its anchor is not mined$/m,
    );
    expect(out).to.match(/^pending: steps 1-3 passed; .*--wait\)$/m);
    expect(code).to.equal(3);
  });

  it("also reports pending when the engine answers the score's leaf with 404 status pending", async () => {
    const engine = recordedEngine();
    engine.responses.set(`/api/v1/anchors/leaves/${engine.row.seal}`, {
      status: 404,
      body: {
        status: "pending",
        seal: engine.row.seal,
        leafIndex: 7,
        error: { code: "NOT_ANCHORED", message: "later" },
      },
    });
    responses = engine.responses;
    expect((await run()).code).to.equal(3);
  });

  it("--wait asks again until the anchor is mined, then verifies; gives up as pending after SECONDS", async () => {
    const engine = recordedEngine();
    const body = scoreBody(engine);
    body.anchor = { status: "pending" };
    responses = engine.responses;
    dependencies.pollMs = 20;
    const timer = setTimeout(() => (body.anchor = { status: "anchored" }), 150);
    const waited = await run("--wait");
    clearTimeout(timer);
    expect(waited.err).to.contain("waiting up to 3600 s for a pending anchor");
    expect(waited.code, waited.out).to.equal(0);
    expect(waited.out).to.contain("step 4 passed");

    body.anchor = { status: "pending" };
    const started = Date.now();
    const gaveUp = await run("--wait", "0.2");
    expect(gaveUp.code).to.equal(3);
    expect(Date.now() - started).to.be.within(200, 3_000);
    expect((await run("--wait", "soon")).err).to.contain("--wait must be a number of seconds");
  });

  it("gives each request a deadline (--timeout): an engine that never answers is one line, exit 1", async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      const started = Date.now();
      const { code, err } = await runAt(origin, "--timeout", "0.3");
      expect(Date.now() - started).to.be.below(2_000);
      expect(code).to.equal(1);
      expect(err).to.equal(
        `augur verify: ${origin}/api/v1/agents/me/score?season_id=s1: no answer from the engine within 0.3 s\n`,
      );
      expect((await runAt(origin, "--timeout", "0")).code).to.equal(2);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
