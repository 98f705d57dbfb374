/**
 * The engine's `augur` command and Hardhat's CLI run as child processes, the way an operator runs
 * them: the end-to-end test drives the engine through its command line only.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { resolve } from "node:path";

export const ROOT = resolve(__dirname, "../..");
const AUGUR_BIN = resolve(ROOT, "packages/engine/bin/augur.cjs");

/** An environment for a child: no colours, no leaked network choice or PostgreSQL URL. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // The runner's own choices must not leak: the store is the SQLite file the test names, and
  // every Hardhat child picks its network on its command line.
  delete env.HARDHAT_NETWORK;
  delete env.DATABASE_URL;
  delete env.AUGUR_DATA_DIR;
  return { ...env, FORCE_COLOR: "0", NO_COLOR: "1", ...extra };
}

export interface Finished {
  readonly code: number | null;
  /** stdout and stderr, interleaved as they arrived. */
  readonly out: string;
  readonly stdout: string;
}

/** Runs `command args` to completion. */
export function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<Finished> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.once("error", fail);
    child.once("close", (code) => done({ code, out, stdout }));
  });
}

/** `augur <args>` in a child process. */
export function augur(args: readonly string[], env: NodeJS.ProcessEnv): Promise<Finished> {
  return run(process.execPath, [AUGUR_BIN, ...args], env);
}

/** `npx hardhat <args>` in a child process (its own Hardhat runtime and network). */
export function hardhat(args: readonly string[], env: NodeJS.ProcessEnv): Promise<Finished> {
  const cli = require.resolve("hardhat/internal/cli/cli", { paths: [ROOT] });
  return run(process.execPath, [cli, ...args], env);
}

/** A long-running `augur serve`: its API origin, and `stop` (SIGTERM, then its exit code). */
export interface Served {
  readonly origin: string;
  output(): string;
  stop(): Promise<number | null>;
}

export async function serve(args: readonly string[], env: NodeJS.ProcessEnv): Promise<Served> {
  const child: ChildProcess = spawn(process.execPath, [AUGUR_BIN, "serve", ...args], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  const origin = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`augur serve did not listen in 30 s:\n${out}`)), 30_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = out.match(/listening on (http:\/\/\S+)/);
      if (match) {
        clearTimeout(timer);
        done(match[1]!);
      }
    });
    // Request logs (pino JSON lines) go to stderr; kept for a failure's message.
    child.stderr!.on("data", (chunk: Buffer) => (out += chunk.toString()));
    void exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`augur serve exited (${code}) before listening:\n${out}`));
    });
  });
  return {
    origin,
    output: () => out,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}
