import { parseArgs } from "node:util";
import { InvalidInputError, parseIJson, seal, UnsealableRecordError } from "@augur/scorer";
import { UsageError, type Command } from "../command";
import { readInput } from "../input";

const usage = `Usage: augur seal [file]

Prints the seal of one JSON record: 0x + hex sha256 of its RFC 8785 canonical JSON.
Reads the record from <file>, or from stdin when no file is given. A record that is not I-JSON
(RFC 7493: a repeated key, an integer beyond ±(2^53 − 1)) is refused, not sealed as something else.
`;

export const command: Command = {
  name: "seal",
  summary: "print the seal (sha256 of RFC 8785 canonical JSON) of a JSON record",
  usage,
  async run(argv, io) {
    let positionals: string[];
    try {
      ({ positionals } = parseArgs({ args: argv, options: {}, allowPositionals: true, strict: true }));
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    if (positionals.length > 1) throw new UsageError(`expected at most one file, got ${positionals.length}`);
    const text = await readInput(positionals[0], io);
    let record: unknown;
    try {
      record = parseIJson(text);
    } catch (error) {
      if (error instanceof UnsealableRecordError) throw error;
      throw new InvalidInputError(positionals[0] ?? "stdin", `malformed JSON (${(error as Error).message})`);
    }
    io.stdout.write(`${seal(record)}\n`);
    return 0;
  },
};
