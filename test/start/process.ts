import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { cpus } from "node:os";
import { resolve } from "node:path";

export const ROOT = resolve(__dirname, "../..");

/** A running `npm start`, its output so far and its exit. */
export interface Demo {
  readonly child: ChildProcess;
  out(): string;
  readonly exit: Promise<number | null>;
  exited(): boolean;
}

/**
 * Starts the demo as a user does, `npm start -- <args>`. `detached` puts it in a process group of
 * its own, like a terminal's foreground job, so a test can Ctrl-C the whole group.
 */
export function startDemo(args: readonly string[], options: { detached?: boolean } = {}): Demo {
  // The child picks its own network (a node it starts); this runner's choice must not leak.
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" };
  delete env.HARDHAT_NETWORK;
  const child = spawn("npm", ["start", "--", ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env,
    detached: options.detached ?? false,
  });
  let out = "";
  let exited = false;
  child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (out += chunk.toString()));
  const exit = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  void exit.then(() => (exited = true));
  return { child, out: () => out, exit, exited: () => exited };
}

/** The first capture of `pattern` in the demo's output, waiting for it to appear. */
export function waitFor(demo: Pick<Demo, "out" | "exited">, pattern: RegExp): Promise<RegExpMatchArray> {
  return new Promise((done, fail) => {
    const timer = setInterval(() => {
      const match = demo.out().match(pattern);
      if (match) {
        clearInterval(timer);
        done(match);
      } else if (demo.exited()) {
        clearInterval(timer);
        fail(new Error(`npm start exited before printing ${pattern}:\n${demo.out()}`));
      }
    }, 100);
  });
}

/** Polls `probe` every 250 ms until it answers true, for at most `ms`. */
export async function eventually(probe: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Pids of live processes whose command line holds every one of `words` (Linux /proc). */
export function pidsRunning(...words: string[]): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (words.every((w) => argv.includes(w))) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** One busy loop per core, in processes of their own: the machine is loaded until `stop`. */
export function loadEveryCore(): { stop(): void } {
  const loops = cpus().map(() => spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }));
  return {
    stop() {
      for (const loop of loops) loop.kill("SIGKILL");
    },
  };
}
