import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PassThrough } from "node:stream";
import { expect } from "chai";
import { main as augur } from "@augur/engine/src/cli/main";

const ROOT = resolve(__dirname, "../..");

/** `augur <argv>` in this process: its exit code and everything it printed. */
async function runAugur(argv: string[]): Promise<{ code: number; out: string }> {
  const stdout = new PassThrough();
  let out = "";
  stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  const code = await augur(argv, { stdout, stderr: stdout, stdin: new PassThrough() });
  return { code, out };
}

/** The first capture of `pattern` in the output so far, waiting for it to appear. */
function waitFor(read: () => string, pattern: RegExp, exited: () => boolean): Promise<RegExpMatchArray> {
  return new Promise((done, fail) => {
    const timer = setInterval(() => {
      const match = read().match(pattern);
      if (match) {
        clearInterval(timer);
        done(match);
      } else if (exited()) {
        clearInterval(timer);
        fail(new Error(`npm start exited before printing ${pattern}:\n${read()}`));
      }
    }, 100);
  });
}

describe("npm start (smoke test, --ci)", function () {
  this.timeout(120_000);

  it("comes up, anchors, scores an agent that augur verify accepts, and exits 0 by itself", async () => {
    const started = Date.now();
    const dataDir = mkdtempSync(join(tmpdir(), "augur-start-"));
    const tsx = require.resolve("tsx/cli", { paths: [ROOT] });
    // The child picks its own network (a node it starts); this runner's choice must not leak.
    const childEnv = { ...process.env };
    delete childEnv.HARDHAT_NETWORK;
    const child = spawn(
      process.execPath,
      [
        tsx,
        "scripts/start.ts",
        "--ci",
        "--port",
        "0",
        "--duration",
        "25",
        "--hour-ms",
        "300",
        "--data-dir",
        dataDir,
      ],
      { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], env: childEnv },
    );
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
    const exit = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
    let exitedAt: number | undefined;
    void exit.then(() => (exitedAt = Date.now()));
    try {
      const read = () => out;
      const gone = () => exitedAt !== undefined;
      const [, api] = await waitFor(read, /^api\s+(\S+)$/m, gone);
      const [, rpc] = await waitFor(read, /^chain\s+(\S+)/m, gone);
      const [, registry] = await waitFor(read, /^registry\s+(0x[0-9a-fA-F]{40})$/m, gone);
      // A table row with a number in the score column: "  <agent> <style> <score> <rank> …"
      const [, agent] = await waitFor(read, /^ {2}([a-z0-9-]+)\s+[a-z-]+\s+\d+\.\d\s+\d+\s/m, gone);

      const { anchors } = (await (await fetch(`${api}/anchors`)).json()) as {
        anchors: Array<{ treeSize: number }>;
      };
      expect(anchors.length).to.be.greaterThan(0);
      expect(anchors[0]!.treeSize).to.be.greaterThan(0);

      const score = (await (await fetch(`${api}/agents/${agent}/score?season_id=demo`)).json()) as {
        score?: unknown;
      };
      expect(JSON.stringify(score)).to.match(/"score":\d/);

      const verify = () =>
        runAugur([
          "verify",
          "--api",
          api!.replace(/\/api\/v1$/, ""),
          "--agent",
          agent!,
          "--season",
          "demo",
          "--rpc",
          rpc!,
          "--registry",
          registry!,
        ]);
      // The demo scores, then anchors the scores a moment later in the same hour: a verify that
      // fetched a score in between finds it "not anchored yet". Only that case is retried.
      let verified = await verify();
      for (let attempt = 0; attempt < 3 && /not anchored yet/.test(verified.out); attempt += 1) {
        await new Promise((r) => setTimeout(r, 200));
        verified = await verify();
      }
      expect(verified.code, verified.out).to.equal(0);
      expect(verified.out).to.match(/^verified: score \d+(\.\d)?$/m);

      // The demo token's scripted days are sealed by the first cycle: the stewardship page has data.
      const stewardship = (await (await fetch(`${api}/stewardship`)).json()) as {
        state: string | null;
        days: Array<{ holders: number; organicVolumeUsd: number; clusters: number; seal: string }>;
      };
      expect(stewardship.state).to.equal("normal");
      expect(stewardship.days.length).to.be.at.least(4);
      expect(stewardship.days.at(-1)!.holders).to.be.at.least(60);
      expect(stewardship.days.at(-1)!.organicVolumeUsd).to.be.greaterThan(0);
      expect(stewardship.days.at(-1)!.clusters).to.equal(1); // the wash wallet's round trips, rule (b)

      expect(await exit, out).to.equal(0);
      expect(out).to.match(/^stopped: server and store closed, node killed$/m);
      console.log(
        `      npm start smoke: up, scored and stopped in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
    } finally {
      if (exitedAt === undefined) child.kill("SIGTERM");
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
