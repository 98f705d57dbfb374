/**
 * `npm start`: the whole system on one machine (scripts/start/demo.ts). This entry only parses
 * the options and installs the stop signal, so `npm start -- --help` needs nothing compiled and
 * a Ctrl-C at any later point leads to the demo's cleanup. `npm start -- --help` for options.
 */
import { parseStartOptions, START_HELP, StartUsageError, type StartOptions } from "./start/options";
import { stopSignal } from "./start/signals";

async function main(): Promise<number> {
  let options: StartOptions;
  try {
    options = parseStartOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof StartUsageError)) throw error;
    process.stderr.write(`npm start: ${error.message} (npm start -- --help)\n`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(START_HELP);
    return 0;
  }
  const stop = stopSignal(options.duration);
  const { runDemo } = await import("./start/demo");
  await runDemo(options, stop);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `npm start: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}\n`,
    );
    process.exit(1);
  },
);
