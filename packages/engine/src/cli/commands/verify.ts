import { parseArgs } from "node:util";
import { isAddress } from "ethers";
import { type Command, UsageError } from "../command";
import { registryHeadChecker } from "../../verify/registry";
import { verifyScore, type HeadChecker } from "../../verify/verify-score";
import type { HttpOptions } from "../../verify/http";

/** Exit codes, as `--help` and docs/engine.md list them. */
export const EXIT = { verified: 0, failed: 1, usage: 2, pending: 3 } as const;
const DEFAULT_TIMEOUT_S = 10;
/** `--wait` without seconds: one hourly cycle, the longest a score waits for its anchor. */
const DEFAULT_WAIT_S = 3600;

const usage = `Usage: augur verify --api URL --agent ID --season S [--rpc URL --registry ADDRESS]
                    [--wait [SECONDS]] [--timeout SECONDS]

Runs the four recompute steps of augur-score/v1 against a running engine, printing each one:
  1  sha256 of the manifest equals the score's seal
  2  each snapshot and creator-input seal it names sits in a mined anchor
     (GET /api/v1/anchors/leaves/:seal; proof checked locally, and on chain with --rpc/--registry)
  3  the named formula version, over the manifest's measured values, reproduces every output
  4  the score's own seal sits in an anchor later than its inputs'

Exit codes:
  0  verified: all four steps passed
  1  not verified: a step failed, or the engine or chain could not be read (one line on stderr:
     unreachable, no answer within --timeout, an HTTP error, a --registry that is no AnchorRegistry)
  2  bad command line
  3  pending: steps 1-3 passed, the score's own anchor is not mined yet (try again, or --wait)

Options:
  --api URL            the engine: its origin (http://127.0.0.1:8787) or its API base
                       (http://127.0.0.1:8787/api/v1, as \`npm start\` prints it)
  --agent ID           the agent
  --season S           the season id
  --rpc URL            a JSON-RPC endpoint of the chain holding AnchorRegistry (with --registry)
  --registry ADDRESS   the AnchorRegistry address (with --rpc), from deployments/<network>.json
  --wait [SECONDS]     while the latest score is pending, ask again every second for up to
                       SECONDS (default ${DEFAULT_WAIT_S}, one cycle) before answering pending
  --timeout SECONDS    deadline of each API or chain request, no retry (default ${DEFAULT_TIMEOUT_S})`;

/** For tests: swaps the HTTP client, the on-chain head checker and the polling period. */
export interface VerifyDependencies {
  fetch?: typeof fetch;
  headChecker?: (rpc: string, registry: string, http: HttpOptions) => HeadChecker;
  pollMs?: number;
}
export const dependencies: VerifyDependencies = {};

/** `--wait` may come without its value: give it the default so parseArgs sees a string. */
function withWaitValue(argv: string[]): string[] {
  return argv.flatMap((arg, i) =>
    arg === "--wait" && (argv[i + 1] === undefined || argv[i + 1]!.startsWith("--"))
      ? [`--wait=${DEFAULT_WAIT_S}`]
      : [arg],
  );
}

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: withWaitValue(argv),
      strict: true,
      options: {
        api: { type: "string" },
        agent: { type: "string" },
        season: { type: "string" },
        rpc: { type: "string" },
        registry: { type: "string" },
        wait: { type: "string" },
        timeout: { type: "string" },
      },
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function seconds(value: string | undefined, flag: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(n >= min) || n > 86_400)
    throw new UsageError(
      `${flag} must be a number of seconds, ${min > 0 ? "above 0" : "0 or more"} and at most 86400, got ${value}`,
    );
  return n;
}

/** The engine's base URL from its origin or from its printed `…/api/v1`. */
export function apiBase(api: string): string {
  let url: URL;
  try {
    url = new URL(api);
  } catch {
    throw new UsageError(`--api must be an http(s) URL, got ${api}`);
  }
  if (!/^https?:$/.test(url.protocol)) throw new UsageError(`--api must be an http(s) URL, got ${api}`);
  if (url.search || url.hash) throw new UsageError(`--api takes no query or fragment, got ${api}`);
  const path = url.pathname.replace(/\/+$/, "").replace(/\/api\/v1$/, "");
  return `${url.origin}${path}`;
}

export const command: Command = {
  name: "verify",
  summary: "Recompute and check one agent's sealed score against the engine and the chain",
  usage,
  async run(argv, io) {
    const values = parse(argv);
    const { agent, season, rpc, registry } = values;
    if (!values.api || !agent || !season) throw new UsageError("--api, --agent and --season are required");
    const api = apiBase(values.api);
    if ((rpc === undefined) !== (registry === undefined))
      throw new UsageError("--rpc and --registry go together");
    if (registry !== undefined && !isAddress(registry))
      throw new UsageError(`--registry must be an address, got ${registry}`);
    const http: HttpOptions = {
      fetch: dependencies.fetch,
      timeoutMs: seconds(values.timeout, "--timeout", DEFAULT_TIMEOUT_S, 0.001) * 1000,
    };
    const waitMs = seconds(values.wait, "--wait", 0, 0) * 1000;
    const chain =
      rpc !== undefined && registry !== undefined
        ? (dependencies.headChecker ?? registryHeadChecker)(rpc, registry, http)
        : undefined;

    if (waitMs > 0) io.stderr.write(`augur verify: waiting up to ${waitMs / 1000} s for a pending anchor\n`);
    const report = await verifyScore({
      api,
      agent,
      season,
      chain,
      http,
      waitMs,
      pollMs: dependencies.pollMs,
    });
    io.stdout.write(`augur verify: agent ${agent}, season ${season}, seal ${report.seal}\n`);
    for (const step of report.steps) {
      const outcome = step.pending ? "pending" : step.passed ? "passed" : "FAILED";
      io.stdout.write(`step ${step.step} ${outcome}: ${step.summary}\n`);
      for (const line of step.details) io.stdout.write(`  ${line}\n`);
    }
    if (report.passed) {
      io.stdout.write(`verified: score ${JSON.stringify(report.score)}\n`);
      return EXIT.verified;
    }
    if (report.pending) {
      io.stdout.write(
        `pending: steps 1-3 passed; the score's anchor is not mined yet (run again later, or pass --wait)\n`,
      );
      return EXIT.pending;
    }
    io.stdout.write(`not verified: ${report.steps.filter((s) => !s.passed).length} of 4 steps failed\n`);
    return EXIT.failed;
  },
};
