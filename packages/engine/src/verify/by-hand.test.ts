import { expect } from "chai";
import { spawn, spawnSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import fc from "fast-check";
import { canonicalJson } from "@augur/scorer";
import { recordedEngine, type Responses } from "../../test-support/verify/testing";

// scripts/verify-by-hand/verify_score.py (Python 3, standard library only) against recorded
// engine answers and a stub chain node; the end-to-end run against a real engine and chain is
// test/e2e/verify-by-hand.ts (a suite of test/e2e/engine.e2e.test.ts).

const DIR = join(__dirname, "..", "..", "..", "..", "scripts", "verify-by-hand");
const SCRIPT = join(DIR, "verify_score.py");
const REGISTRY = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const ROOT_OF = "0x9d7384d9";

function python(args: string[], input?: string): Promise<{ code: number | null; out: string }> {
  return new Promise((done) => {
    // No __pycache__ left in the repository by importing the script.
    const env = { ...process.env, PYTHONDONTWRITEBYTECODE: "1" };
    const child = spawn("python3", args, { stdio: ["pipe", "pipe", "pipe"], env });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (out += c.toString()));
    child.once("close", (code) => done({ code, out }));
    child.stdin.end(input ?? "");
  });
}

describe("verify by hand (Python): the seed's four steps, on recorded engine answers", function () {
  this.timeout(60_000);
  let server: Server;
  let origin = "";
  let responses: Responses = new Map();
  /** treeSize → the root the stub registry answers to rootOf. */
  let posted = new Map<number, string>();

  before(async () => {
    // python3 is on every machine this project supports: a missing one fails, never skips.
    const version = spawnSync("python3", ["--version"], { encoding: "utf8" });
    expect(version.status, `python3 is required: ${version.error?.message ?? version.stderr}`).to.equal(0);
    server = createServer((req, res) => {
      let text = "";
      req.on("data", (c: Buffer) => (text += c.toString()));
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/json" });
        if (req.method === "POST") {
          const { id, method, params } = JSON.parse(text) as {
            id: number;
            method: string;
            params: unknown[];
          };
          let result = "0x80";
          if (method === "eth_call") {
            const { to, data } = params[0] as { to: string; data: string };
            expect(to).to.equal(REGISTRY);
            expect(data.slice(0, 10)).to.equal(ROOT_OF);
            result = posted.get(Number(BigInt(`0x${data.slice(10)}`))) ?? `0x${"0".repeat(64)}`;
          }
          return res.end(JSON.stringify({ jsonrpc: "2.0", id, result }));
        }
        const hit = responses.get(req.url ?? "");
        res.statusCode = hit?.status ?? 404;
        res.end(JSON.stringify(hit?.body ?? { error: { code: "NOT_FOUND", message: "not found" } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const engine = (options: Parameters<typeof recordedEngine>[0] = {}) => {
    const recorded = recordedEngine(options);
    responses = recorded.responses;
    posted = new Map(recorded.heads.map((h) => [h.treeSize, h.root]));
    return recorded;
  };
  const verify = (...extra: string[]) =>
    python([
      SCRIPT,
      ...["--api", `${origin}/api/v1`, "--agent", "me", "--season", "s1", "--rpc", origin],
      ...["--registry", REGISTRY, ...extra],
    ]);

  it("passes all four steps on an honest, anchored score and prints the score", async () => {
    const { row } = engine();
    const { code, out } = await verify();
    expect(out).to.match(/^step 1 passed: .*the text is RFC 8785 canonical: True$/m);
    expect(out).to.match(/^step 2 passed: 3 of 3 input seals in anchors posted on chain$/m);
    expect(out).to.match(/^step 3 passed: augur-score\/v1 reproduces every output bit for bit$/m);
    expect(out).to.match(
      /^step 4 passed: score 0x[0-9a-f]{8}: leaf 7 of tree 9, .*a later anchor than its inputs'$/m,
    );
    expect(out).to.contain(`verified: score ${canonicalJson(row.score)}\n`);
    expect(code, out).to.equal(0);
  });

  it("fails steps 1 and 3 on an edited output, naming the value", async () => {
    const recorded = engine();
    const body = recorded.responses.get("/api/v1/agents/me/score?season_id=s1")!.body as {
      manifest: { outputs: { weighted: number } };
    };
    body.manifest = JSON.parse(JSON.stringify(body.manifest)) as typeof body.manifest;
    body.manifest.outputs.weighted += 1e-12; // the last bits: what a wrong summation order changes
    const { code, out } = await verify();
    expect(out).to.match(/^step 1 FAILED/m);
    expect(out).to.match(/^step 3 FAILED: 1 values differ$/m);
    expect(out).to.match(/^ {2}outputs\.weighted: manifest [\d.]+, recomputed [\d.]+$/m);
    expect(code).to.equal(1);
  });

  it("fails step 2 and 4 when the registry on chain holds another root", async () => {
    engine();
    posted = new Map([...posted].map(([size]) => [size, `0x${"ab".repeat(32)}`]));
    const { code, out } = await verify();
    expect(out).to.match(/^step 2 FAILED: 0 of 3/m);
    expect(out).to.match(/AnchorRegistry\.rootOf\(7\) is not that root/);
    expect(out).to.match(/^step 4 FAILED: score: AnchorRegistry\.rootOf\(9\) is not that root$/m);
    expect(code).to.equal(1);
  });

  it("reports a score whose anchor is pending with exit 3, after checking steps 1-3", async () => {
    const recorded = engine();
    (recorded.responses.get("/api/v1/agents/me/score?season_id=s1")!.body as { anchor: unknown }).anchor = {
      status: "pending",
    };
    const { code, out } = await verify();
    expect(out).to.match(/^step 3 passed/m);
    expect(out).to.match(/^step 4 pending: score seal 0x[0-9a-f]{8} is not anchored yet$/m);
    expect(code).to.equal(3);
  });

  it("an engine that cannot be reached is one line and exit 1", async () => {
    const { code, out } = await python([
      SCRIPT,
      ...["--api", "http://127.0.0.1:9", "--agent", "me", "--season", "s1", "--rpc", origin],
      ...["--registry", REGISTRY, "--timeout", "2"],
    ]);
    expect(code).to.equal(1);
    expect(out.trim().split("\n")).to.have.length(1);
    expect(out).to.match(
      /^verify_score\.py: http:\/\/127\.0\.0\.1:9\/api\/v1\/agents\/me\/score\?season_id=s1: /,
    );
  });

  it("writes RFC 8785 canonical JSON byte for byte as the scorer does (random JSON values)", async () => {
    // Only what a seal can hold: integers beyond ±(2^53 − 1) are refused by canonicalJson (I-JSON).
    const sealable = (v: unknown) => {
      try {
        return canonicalJson(v) !== undefined;
      } catch {
        return false;
      }
    };
    const values = fc.sample(fc.jsonValue({ maxDepth: 3 }).filter(sealable), { numRuns: 400 });
    values.push(...[1e-7, 5e-324, -0, 0.1 + 0.2, 2 ** 53 - 1, 123.456e10, 1.5e-300].map((n) => ({ n })));
    for (const n of [1e21, 2 ** 53]) expect(sealable({ n }), `${n}`).to.equal(false);
    const program = `import json, sys; sys.path.insert(0, ${JSON.stringify(DIR)}); from verify_score import canonical
for line in sys.stdin: print(canonical(json.loads(line)))`;
    const { code, out } = await python(
      ["-c", program],
      values.map((v) => JSON.stringify(v)).join("\n") + "\n",
    );
    expect(code, out).to.equal(0);
    expect(out.split("\n").slice(0, -1)).to.deep.equal(values.map((v) => canonicalJson(v)));
  });
});
