/**
 * A throw-away `hardhat node` in a child process: the keeper tests and `npm start` both run
 * against a real JSON-RPC endpoint, so the chain lives here rather than in a test helper.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type Socket } from "node:net";
import { resolve } from "node:path";
import { JsonRpcProvider } from "ethers";

/** The repository root (the Hardhat project), from this file's place in packages/engine/src/chain. */
export const REPO_ROOT = resolve(__dirname, "../../../..");

/** A TCP port free on 127.0.0.1 right now (the OS picks it). */
export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => done(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** A `hardhat node` in its own process (the DESIGN's `localhost` network), killed by `stop`. */
export interface HardhatNode {
  readonly url: string;
  readonly provider: JsonRpcProvider;
  stop(): Promise<void>;
}

export interface NodeOptions {
  /**
   * Run the node in its own process group, so a Ctrl-C in the terminal reaches only the parent,
   * which then stops the node itself after its own clean shutdown (`npm start`). Tests leave it
   * off: when a test run is interrupted, the node goes down with it.
   */
  readonly ownProcessGroup?: boolean;
  /** How long the node may take to listen (default 90 s; benches on a loaded machine need more). */
  readonly startTimeoutMs?: number;
  /**
   * Do not keep this process alive for the node: it is killed when this process exits (one node
   * shared by the test files of a run, which never stop it themselves).
   */
  readonly unref?: boolean;
}

export async function startHardhatNode(options: NodeOptions = {}): Promise<HardhatNode> {
  const port = await freePort();
  const cli = require.resolve("hardhat/internal/cli/cli", { paths: [REPO_ROOT] });
  const child: ChildProcess = spawn(
    process.execPath,
    [cli, "node", "--hostname", "127.0.0.1", "--port", `${port}`],
    {
      cwd: REPO_ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, FORK_URL: "" },
      detached: options.ownProcessGroup ?? false,
    },
  );
  let output = "";
  await new Promise<void>((done, fail) => {
    const limit = options.startTimeoutMs ?? 90_000;
    const timer = setTimeout(() => {
      child.kill("SIGTERM"); // not left running on its own
      fail(new Error(`hardhat node did not start in ${limit / 1000} s:\n${output}`));
    }, limit);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Started HTTP")) {
        clearTimeout(timer);
        done();
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`hardhat node exited (${code}):\n${output}`));
    });
  });
  // Keep draining its output so the pipe never fills and blocks the node.
  child.stdout!.removeAllListeners("data");
  child.stdout!.resume();
  child.stderr!.resume();
  if (options.unref) {
    // The pipes are sockets: unref'd too, or they would hold the process open.
    for (const handle of [child, child.stdout as Socket, child.stderr as Socket]) handle.unref();
    process.once("exit", () => child.kill("SIGTERM"));
  }
  const url = `http://127.0.0.1:${port}`;
  const provider = new JsonRpcProvider(url, undefined, { staticNetwork: true, cacheTimeout: -1 });
  return {
    url,
    provider,
    async stop() {
      provider.destroy();
      if (child.exitCode !== null) return;
      const exited = new Promise((done) => child.once("exit", done));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
