import { type Transferable, Worker } from "node:worker_threads";
import { build, type Plugin } from "esbuild";
import { bootstrap } from "../records/ingest-pool";

/** A worker's message on the way to its answer (`augur verify` reports each agent as it is done). */
export interface WorkerNote {
  readonly note: unknown;
}

export interface WorkerOptions {
  /** Told each `{ note }` message. */
  readonly onNote?: (note: unknown) => void;
  /** The worker's node flags (`--cpu-prof` to profile it). */
  readonly execArgv?: readonly string[];
}

/** A worker started, waiting for its messages. */
export interface StartedWorker<A> {
  /** Sends a message now (moving `transfer`), not the last one. */
  send(message: unknown, transfer?: readonly Transferable[]): void;
  /** Sends the last message now (moving `transfer`); resolves to the worker's answer. */
  ask(message: unknown, transfer?: readonly Transferable[]): Promise<A>;
  /** Ends the worker, asked or not (a worker not needed after all, or a caller that failed). */
  stop(): void;
}

/** Our own packages' TypeScript is bundled into the worker's script; any other package is required as is. */
const ownSourcesOnly: Plugin = {
  name: "own-sources-only",
  setup(plugin) {
    plugin.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith("@augur/") ? undefined : { path: args.path, external: true },
    );
  },
};

const bundles = new Map<string, Promise<string>>();

/**
 * `script` and the TypeScript it imports as one CommonJS script, made once per process by esbuild
 * (the transformer tsx itself runs): a worker then starts as a bare thread, not by registering tsx
 * and transforming module after module (0.3-0.5 s of CPU a worker, docs/benchmarks.md). Where
 * esbuild cannot bundle it, the worker registers tsx (`bootstrap`).
 */
export function workerSource(script: string): Promise<string> {
  let source = bundles.get(script);
  if (!source) {
    source = build({
      entryPoints: [script],
      bundle: true,
      platform: "node",
      format: "cjs",
      target: `node${process.versions.node}`,
      write: false,
      logLevel: "silent",
      plugins: [ownSourcesOnly],
    }).then(
      (result) => result.outputFiles[0]!.text,
      () => bootstrap(script),
    );
    bundles.set(script, source);
  }
  return source;
}

/**
 * Starts `script` in a worker thread of its own; resolves once the thread is starting, so it loads
 * while the caller prepares its messages. Messages `{ note }` go to `onNote`; the first other
 * message is the answer, and the worker ends then.
 */
export async function startWorker<A>(script: string, options: WorkerOptions = {}): Promise<StartedWorker<A>> {
  const worker = new Worker(await workerSource(script), {
    eval: true,
    execArgv: options.execArgv && [...options.execArgv],
  });
  let answered = false;
  const answer = new Promise<A>((resolve, reject) => {
    worker.on("message", (message: A | WorkerNote) => {
      if (typeof message === "object" && message !== null && "note" in message) {
        options.onNote?.(message.note);
        return;
      }
      answered = true;
      void worker.terminate();
      resolve(message);
    });
    worker.once("error", reject);
    worker.once("exit", (code) => {
      if (!answered) reject(new Error(`worker ${script} exited with code ${code} before answering`));
    });
  });
  // A worker that fails before it is asked is reported by `ask`.
  answer.catch(() => undefined);
  return {
    send(message, transfer = []) {
      worker.postMessage(message, [...transfer]);
    },
    ask(message, transfer = []) {
      worker.postMessage(message, [...transfer]);
      return answer;
    },
    stop() {
      answered = true;
      void worker.terminate();
    },
  };
}

/** `startWorker(script, options)`, asked `message`: one worker, one message, one answer. */
export async function inWorker<A>(script: string, message: unknown, options: WorkerOptions = {}): Promise<A> {
  return (await startWorker<A>(script, options)).ask(message);
}
