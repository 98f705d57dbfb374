import { readFile, stat } from "node:fs/promises";
import { parseArgs } from "node:util";
import { AugurError, InvalidInputError, type SeasonInput, validateSeasonInput } from "@augur/scorer";
import {
  DEFAULT_SCORE_WORKERS,
  MIN_RECORDS_PER_WORKER,
  scoreSeasonInWorkers,
  startScoreWorkers,
} from "../../cycle/score-pool";
import { type Command, type CommandIo, UsageError } from "../command";
import { workersOption } from "../options";

/** The input file cannot be read at all (missing, a directory, no permission). */
export class UnreadableInputError extends AugurError {
  override readonly name = "UnreadableInputError";
  constructor(path: string, reason: string) {
    super("UNREADABLE_INPUT", `cannot read ${path}: ${reason}`, { path });
  }
}

const usage = `Usage: augur score --input season.json

Scores every agent of one season with augur-score/v1 and prints one JSON object:
{ "formula", "season_id", "as_of", "rows": [ { "agent_id", "score", "rank", "reason", "terms",
"weights_used", "match", "multiplier", "manifest", "seal" } ] }, rows by rank then agent id.

Options:
  --input FILE   the season input (schema: packages/scorer/schema/season.schema.json); - reads stdin
  --workers N    worker threads sharing the agents (default: one per core);
                 the output is the same for any N (a small season is scored in one thread)

A file that does not match the schema exits 1 with the field and row that are wrong.`;

/**
 * A file of at least this many bytes has its workers started before it is read: about the
 * 2 × MIN_RECORDS_PER_WORKER records (≈ 100 bytes of JSON each) two threads share at the least.
 */
const PRESTART_BYTES = 2 * MIN_RECORDS_PER_WORKER * 100;

/** The size of the file at `path` (0 for stdin or a file that cannot be read: `readInput` says why). */
async function fileBytes(path: string): Promise<number> {
  if (path === "-") return 0;
  try {
    return (await stat(path)).size;
  } catch {
    return 0;
  }
}

async function readStdin(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}

async function readInput(path: string, io: CommandIo): Promise<unknown> {
  let text: string;
  try {
    text = path === "-" ? await readStdin(io.stdin) : await readFile(path, "utf8");
  } catch (error) {
    throw new UnreadableInputError(path, (error as NodeJS.ErrnoException).code ?? (error as Error).message);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InvalidInputError("$", `is not valid JSON (${(error as Error).message})`);
  }
}

export const command: Command = {
  name: "score",
  summary: "Score a season input with augur-score/v1 and print the sealed rows as JSON",
  usage,
  async run(argv, io) {
    let input: string | undefined;
    let workers: string | undefined;
    try {
      ({ input, workers } = parseArgs({
        args: argv,
        options: { input: { type: "string" }, workers: { type: "string" } },
        strict: true,
      }).values);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    if (input === undefined) throw new UsageError("--input is required (see augur score --help)");
    const count = workersOption(workers, DEFAULT_SCORE_WORKERS);
    // A file large enough to share: its workers start while it is read and parsed.
    const started =
      count > 1 && (await fileBytes(input)) >= PRESTART_BYTES ? startScoreWorkers(count - 1) : undefined;
    let season: SeasonInput;
    try {
      season = validateSeasonInput(await readInput(input, io));
    } catch (error) {
      for (const worker of (await started) ?? []) worker.stop();
      throw error;
    }
    const result = await scoreSeasonInWorkers(season, count, MIN_RECORDS_PER_WORKER, { started });
    io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  },
};
