/** What `npm start` asks of its stop signal: is it stopping, and a sleep that a stop cuts short. */
export interface StopSignal {
  readonly stopped: boolean;
  /** Sleeps `ms` unless stopped first. */
  sleep(ms: number): Promise<void>;
  /** Starts the --duration clock: once the demo is up, so a slow first compile does not eat it. */
  startClock(): void;
  dispose(): void;
}

/**
 * Stops on SIGINT/SIGTERM, or when --duration has run out since `startClock`. Installed before anything starts,
 * so a Ctrl-C at any point leads to the same cleanup. The handlers stay until exit: the terminal's
 * Ctrl-C reaches every process of the group (npm relays it once more), and a second signal during
 * shutdown must not kill the process half-way.
 */
export function stopSignal(durationSeconds: number | undefined): StopSignal {
  let stopped = false;
  let wake: () => void = () => undefined;
  const done = new Promise<void>((resolveDone) => (wake = resolveDone));
  const stop = () => {
    stopped = true;
    wake();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  let timer: NodeJS.Timeout | undefined;
  return {
    get stopped() {
      return stopped;
    },
    sleep: (ms: number) => Promise.race([done, new Promise<void>((r) => setTimeout(r, ms).unref())]),
    startClock() {
      if (durationSeconds !== undefined && timer === undefined)
        timer = setTimeout(stop, durationSeconds * 1000);
    },
    dispose() {
      if (timer) clearTimeout(timer);
    },
  };
}
