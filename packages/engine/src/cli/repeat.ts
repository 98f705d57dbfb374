/** Where stop signals come from: the process, or (in tests) any emitter of the same names. */
export interface SignalSource {
  on(signal: NodeJS.Signals, listener: () => void): unknown;
  off(signal: NodeJS.Signals, listener: () => void): unknown;
}

export interface RepeatOptions {
  /** Aborting it stops the loop like a signal does. */
  readonly signal?: AbortSignal;
  /** Default: the process, for SIGINT and SIGTERM. */
  readonly signals?: SignalSource;
}

const STOP_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM"];

/**
 * Runs `task`, waits `delayMs` (a number, or a function asked after each run, e.g. "until the
 * next hour"), and runs it again, until SIGINT or SIGTERM arrives or `options.signal` aborts.
 * A stop during the wait ends the wait at once; a stop during a run lets that run finish, so a
 * cycle or a keeper pass is never cut in half (each is idempotent anyway, but a clean stop
 * leaves no half-written attempt for the next start to resume). A task that throws stops the
 * loop and the error propagates. The signal listeners are removed however it ends.
 *
 * @returns how many times `task` ran.
 */
export async function repeatUntilSignalled(
  task: () => Promise<unknown>,
  delayMs: number | (() => number),
  options: RepeatOptions = {},
): Promise<number> {
  const source = options.signals ?? process;
  const stopped = new AbortController();
  const stop = () => stopped.abort();
  for (const name of STOP_SIGNALS) source.on(name, stop);
  options.signal?.addEventListener("abort", stop, { once: true });
  if (options.signal?.aborted) stop();
  let runs = 0;
  try {
    while (!stopped.signal.aborted) {
      await task();
      runs += 1;
      if (stopped.signal.aborted) break;
      await sleep(typeof delayMs === "number" ? delayMs : delayMs(), stopped.signal);
    }
    return runs;
  } finally {
    for (const name of STOP_SIGNALS) source.off(name, stop);
    options.signal?.removeEventListener("abort", stop);
  }
}

/** Resolves after `ms`, or as soon as `signal` aborts (never rejects). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal.addEventListener("abort", done, { once: true });
  });
}
