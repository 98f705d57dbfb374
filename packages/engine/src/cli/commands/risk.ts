import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import {
  AugurError,
  InvalidInputError,
  isRiskSortKey,
  parseVaultsFile,
  RISK_SORT_KEYS,
  scoreVaults,
  sortRiskRows,
} from "@augur/scorer";
import { type Command, UsageError } from "../command";

const usage = `Usage: augur risk --input <vaults.json> [--sort <key>]

Scores every vault in the file with risk-score/v1 and prints
{ "rows": [...], "coverage": {...} } as JSON on stdout.

Each row: vault_id, score (0-100, higher is worse; null below 50 % measurable),
measurable_share, components (each 0-1, 1 the worst, or null when unknown)
and reason. Return is never an input.

Options:
  -i, --input <file>  the vaults file (schema: packages/scorer/schema/vaults.schema.json)
      --sort <key>    worst first, unknown last; key: ${RISK_SORT_KEYS.join(", ")}
                      (default: input order)
  -h, --help          this text

Exit codes: 0 scored, 1 unreadable or invalid input (one line naming field and row), 2 bad usage.
`;

function parse(argv: string[]): { input: string; sort?: string } {
  try {
    const { values } = parseArgs({
      args: argv,
      options: { input: { type: "string", short: "i" }, sort: { type: "string" } },
      strict: true,
      allowPositionals: false,
    });
    if (values.input === undefined) throw new UsageError("--input <vaults.json> is required");
    return { input: values.input, sort: values.sort };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? "unreadable";
    throw new AugurError("INPUT_UNREADABLE", `cannot read ${path} (${reason})`, { path });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InvalidInputError("$", `is not valid JSON (${(error as Error).message})`);
  }
}

export const command: Command = {
  name: "risk",
  summary: "Vault risk score (risk-score/v1): what could go wrong, never what went right",
  usage,
  async run(argv, io) {
    const { input, sort } = parse(argv);
    if (sort !== undefined && !isRiskSortKey(sort)) {
      throw new UsageError(`--sort must be one of ${RISK_SORT_KEYS.join(", ")} (got '${sort}')`);
    }
    const { vaults } = parseVaultsFile(await readJson(input));
    const report = scoreVaults(vaults);
    const rows = sort === undefined ? report.rows : sortRiskRows(report.rows, sort);
    io.stdout.write(JSON.stringify({ rows, coverage: report.coverage }, null, 2) + "\n");
    return 0;
  },
};
