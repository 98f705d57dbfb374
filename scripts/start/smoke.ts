/**
 * The start smoke CI runs on a clean clone before anything is compiled (.ci/run): `npm start --
 * --ci --duration 90 --hour-ms 1000` must come up from nothing (it compiles what it needs), reach an hour with a
 * score that `augur verify` accepts, on chain, and stop by itself with exit 0. One line at the
 * end says what was reached; a failure is one line and exit code 1.
 *
 *   node --import tsx scripts/start/smoke.ts [--duration <s>]
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { SCORED_ROW } from "./table";

const ROOT = resolve(__dirname, "../..");
/** Scored a moment before the second cycle of the hour anchored it: worth asking again. */
const NOT_YET = /not anchored yet|pending/i;

class SmokeError extends Error {}

/** Runs a command to its end: exit code and everything it printed. */
function run(cmd: string, args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((done) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (out += c.toString()));
    child.once("exit", (code) => done({ code, out }));
  });
}

async function smoke(duration: string): Promise<string> {
  const started = Date.now();
  const dataDir = mkdtempSync(join(tmpdir(), "augur-start-smoke-"));
  // Hours of 1 s rather than 3: the first score (hour 5) comes well inside the 90 s even on a
  // loaded machine, where an hour's own work takes several seconds.
  const args = [
    "start",
    "--",
    "--ci",
    "--duration",
    duration,
    "--hour-ms",
    "1000",
    "--port",
    "0",
    "--data-dir",
    dataDir,
  ];
  const demo = spawn("npm", args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const echo = (chunk: Buffer) => {
    out += chunk.toString();
    process.stdout.write(chunk);
  };
  demo.stdout.on("data", echo);
  demo.stderr.on("data", echo);
  const exit = new Promise<number | null>((done) => demo.once("exit", (code) => done(code)));
  let exited = false;
  void exit.then(() => (exited = true));
  try {
    // Wait for the first scored hour (or the demo's end, which then fails below).
    while (!SCORED_ROW.test(out) && !exited) await new Promise((r) => setTimeout(r, 200));
    const row = out.match(SCORED_ROW);
    if (!row) throw new SmokeError("npm start ended before any agent was scored");
    const field = (name: string) => out.match(new RegExp(`^${name}\\s+(\\S+)`, "m"))?.[1] ?? "";
    const origin = field("api").replace(/\/api\/v1$/, "");
    const verifyArgs = [
      join(ROOT, "packages/engine/bin/augur.cjs"),
      "verify",
      ...["--api", origin, "--agent", row[1]!, "--season", "demo"],
      ...["--rpc", field("chain"), "--registry", field("registry")],
    ];
    let verified = await run(process.execPath, verifyArgs);
    for (let attempt = 0; attempt < 5 && verified.code !== 0 && NOT_YET.test(verified.out); attempt++) {
      await new Promise((r) => setTimeout(r, 500));
      verified = await run(process.execPath, verifyArgs);
    }
    process.stdout.write(verified.out);
    if (verified.code !== 0) throw new SmokeError(`augur verify exited ${verified.code} for ${row[1]}`);
    const upAfter = (Date.now() - started) / 1000;
    const code = await exit;
    if (code !== 0) throw new SmokeError(`npm start exited ${code}`);
    if (!/^stopped: /m.test(out)) throw new SmokeError("npm start did not print its stopped line");
    return (
      `start smoke: ${row[1]} scored ${row[2]} and verified on chain ${upAfter.toFixed(0)} s after ` +
      `npm start; it stopped by itself with exit 0 after ${((Date.now() - started) / 1000).toFixed(0)} s`
    );
  } finally {
    if (!exited) demo.kill("SIGTERM");
    await exit;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const at = process.argv.indexOf("--duration");
smoke(at > 0 ? process.argv[at + 1]! : "90").then(
  (line) => process.stdout.write(`${line}\n`),
  (error: unknown) => {
    process.stderr.write(`start smoke: FAILED: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
