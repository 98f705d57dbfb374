import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { AugurError } from "@augur/scorer";
import { type Command, type CommandIo, UsageError } from "./command";

/** Every file in `commands/` exports one `command`; adding a command is adding a file. */
export function loadCommands(): Map<string, Command> {
  const dir = join(__dirname, "commands");
  const commands = new Map<string, Command>();
  for (const file of readdirSync(dir).sort()) {
    if (!/\.ts$/.test(file) || /\.test\.ts$/.test(file)) continue;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { command } = require(join(dir, file)) as { command: Command };
    commands.set(command.name, command);
  }
  return commands;
}

/**
 * The command called `name`, loading its file alone (`commands/<name>.ts`): `augur seal` need not
 * load the server's and the chain's modules. Undefined for a name no file has.
 */
export function loadCommand(name: string): Command | undefined {
  const file = join(__dirname, "commands", `${name}.ts`);
  if (!/^[a-z][a-z-]*$/.test(name) || !existsSync(file)) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require(file) as { command: Command }).command;
}

function overview(commands: Map<string, Command>): string {
  const width = Math.max(...[...commands.keys()].map((name) => name.length));
  const lines = [...commands.values()].map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    "Usage: augur <command> [options]",
    "",
    "Commands:",
    ...lines,
    "",
    "Run `augur <command> --help` for its options.",
    "",
  ].join("\n");
}

export async function main(argv: string[], io: CommandIo = process): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout.write(overview(loadCommands()));
    return name === undefined ? 2 : 0;
  }
  const command = loadCommand(name);
  if (!command) {
    io.stderr.write(`augur: unknown command '${name}' (see augur --help)\n`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    io.stdout.write(command.usage.endsWith("\n") ? command.usage : command.usage + "\n");
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    return reportError(name, error, io);
  }
}

/** What went wrong, in one line. */
export function errorLine(error: unknown): string {
  if (error instanceof AugurError) return error.shortMessage;
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0]!;
}

/** One clear line on stderr; exit 2 for usage, 1 for everything else. */
export function reportError(name: string, error: unknown, io: Pick<CommandIo, "stderr">): number {
  io.stderr.write(`augur ${name}: ${errorLine(error)}\n`);
  return error instanceof UsageError ? 2 : 1;
}
