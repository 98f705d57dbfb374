/** One `augur <name>` subcommand; each lives in its own file under `commands/`. */
export interface Command {
  readonly name: string;
  /** One line for `augur --help`. */
  readonly summary: string;
  /** The full `augur <name> --help` text. */
  readonly usage: string;
  /** Runs with the arguments after the command name; resolves to the exit code. */
  run(argv: string[], io: CommandIo): Promise<number>;
}

export interface CommandIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly stdin: NodeJS.ReadableStream;
}

/** A bad command line: exit code 2 and one line on stderr. */
export { UsageError } from "../config/env";
