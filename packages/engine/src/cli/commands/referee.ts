import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs, type ParseArgsConfig } from "node:util";
import {
  AugurError,
  MONKEYS,
  parseRefereeInput,
  type ParsedRefereeInput,
  type RefereeAgentResult,
  refereeAgent,
  refereeDetailJson,
  refereeLeaderboard,
  refereeLeaderboardJson,
  seal,
} from "@augur/scorer";
import { type Command, type CommandIo, UsageError } from "../command";

const USAGE = `Usage:
  augur referee detail --input FILE --agent ID --epoch E [--monkeys] [--json]
  augur referee leaderboard --input FILE --epoch E [--out leaderboard.json]

Recomputes the monkey-percentile referee (referee/v1) from the pinned input file
{ "epoch", "closes": { "<pair>": [ { "at", "close" } ] },
  "predictions": [ { "agent", "slot", "pair", "horizon_h", "direction", "size" } ] }.

detail       one agent: Σr, percentile inside its 2,048 monkeys, quantiles, status
  --monkeys  also every monkey's Σr (monkey 0 … 2047)
  --json     one JSON object { agent, epoch, scored_calls, sum_r, percentile, status, quantiles }
leaderboard  every agent's result and the mu table, written to --out (default leaderboard.json)
`;

/** Reads and parses a JSON file, turning I/O and syntax failures into one clear line. */
function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new AugurError("UNREADABLE_INPUT", `cannot read ${file}: ${(error as NodeJS.ErrnoException).code}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AugurError("INVALID_JSON", `${file} is not JSON: ${(error as Error).message}`);
  }
}

function loadInput(file: string, epoch: string): { raw: unknown; input: ParsedRefereeInput } {
  const raw = readJson(file);
  const input = parseRefereeInput(raw);
  if (input.epochText !== epoch) {
    throw new AugurError(
      "EPOCH_MISMATCH",
      `--epoch ${epoch} does not match the input's epoch ${JSON.stringify(input.epoch)}`,
    );
  }
  return { raw, input };
}

function parse(argv: string[], options: NonNullable<ParseArgsConfig["options"]>) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: false, strict: true }).values;
  } catch (error) {
    throw new UsageError((error as Error).message.split("\n")[0]!);
  }
}

function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== "string" || value.length === 0) throw new UsageError(`--${name} is required`);
  return value;
}

function detailText(result: RefereeAgentResult): string {
  const pending = result.pendingCalls
    ? ` (+${result.pendingCalls} pending: no close yet at slot + horizon)`
    : "";
  const lines = [
    `agent         ${result.agent}`,
    `epoch         ${result.epoch}`,
    `scored calls  ${result.scoredCalls}${pending}`,
    `Σr            ${result.sumR}`,
    `percentile    ${result.percentile} (${result.status})`,
    `monkeys       ${MONKEYS}: ${result.monkeysBelow} below, ${result.monkeysEqual} equal (counted half)`,
    "monkey Σr quantiles (nearest rank):",
    ...Object.entries(result.quantiles).map(([key, value]) => `  ${key.padEnd(4)}  ${value}`),
  ];
  return lines.join("\n") + "\n";
}

async function detail(argv: string[], io: CommandIo): Promise<number> {
  const values = parse(argv, {
    input: { type: "string" },
    agent: { type: "string" },
    epoch: { type: "string" },
    monkeys: { type: "boolean" },
    json: { type: "boolean" },
  });
  const { input } = loadInput(required(values, "input"), required(values, "epoch"));
  const result = refereeAgent(input, required(values, "agent"));
  const monkeySums = [...result.monkeySumsR];
  if (values.json) {
    const json = values.monkeys
      ? { ...refereeDetailJson(result), monkeys: monkeySums }
      : refereeDetailJson(result);
    io.stdout.write(JSON.stringify(json) + "\n");
  } else {
    io.stdout.write(detailText(result));
    if (values.monkeys) {
      io.stdout.write("monkey Σr:\n" + monkeySums.map((sum, m) => `  ${m}  ${sum}`).join("\n") + "\n");
    }
  }
  return 0;
}

async function leaderboard(argv: string[], io: CommandIo): Promise<number> {
  const values = parse(argv, {
    input: { type: "string" },
    epoch: { type: "string" },
    out: { type: "string", default: "leaderboard.json" },
  });
  const { raw, input } = loadInput(required(values, "input"), required(values, "epoch"));
  const board = refereeLeaderboardJson(refereeLeaderboard(input), seal(raw));
  const out = values.out as string;
  writeFileSync(out, JSON.stringify(board, null, 2) + "\n");
  const ranked = board.agents.filter((a) => a.status === "ranked").length;
  io.stdout.write(
    `wrote ${out}: ${board.agents.length} agents (${ranked} ranked), ${board.mu.length} mu entries, input ${board.input_seal}\n`,
  );
  return 0;
}

export const command: Command = {
  name: "referee",
  summary: "Monkey-percentile referee: one agent's detail, or leaderboard.json",
  usage: USAGE,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub === "detail") return detail(rest, io);
    if (sub === "leaderboard") return leaderboard(rest, io);
    throw new UsageError(
      sub === undefined
        ? "missing subcommand: detail or leaderboard"
        : `unknown subcommand '${sub}' (detail or leaderboard)`,
    );
  },
};
