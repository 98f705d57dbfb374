import { parseArgs } from "node:util";
import { isAddress } from "ethers";
import { type Command, UsageError } from "../command";
import { registryHeadChecker } from "../../verify/registry";
import { rescoreAgent } from "../../cycle/rescore";
import { type DeepCheck, type Remeasure, type Rescore, verifyDeep } from "../../verify/deep";
import { chainReader, remeasurer } from "../../verify/remeasure";
import { verifyScore, type HeadChecker } from "../../verify/verify-score";
import type { HttpOptions } from "../../verify/http";

/** Exit codes, as `--help` and docs/engine.md list them. */
export const EXIT = { verified: 0, failed: 1, usage: 2, pending: 3 } as const;
const DEFAULT_TIMEOUT_S = 10;
/** `--wait` without seconds: one hourly cycle, the longest a score waits for its anchor. */
const DEFAULT_WAIT_S = 3600;
/** `--deep --rpc` re-measures this many snapshots unless `--remeasure N` says otherwise. */
const DEFAULT_REMEASURE = 5;

const usage = `Usage: augur verify --api URL --agent ID --season S [--rpc URL --registry ADDRESS]
                    [--wait [SECONDS]] [--timeout SECONDS]
                    [--deep [--remeasure N] [--oracle ADDRESS] [--quoter ADDRESS]]

Runs the four recompute steps of augur-score/v1 against a running engine, printing each one:
  1  sha256 of the manifest equals the score's seal
  2  each snapshot and creator-input seal it names sits in a mined anchor
     (GET /api/v1/anchors/leaves/:seal; proof checked locally, and on chain with --rpc/--registry)
  3  the named formula version, over the manifest's measured values, reproduces every output
  4  the score's own seal sits in an anchor later than its inputs'

With --deep (manifest version 2), then, each printed as "deep passed" or "deep FAILED":
  - every input the manifest binds is fetched (GET /api/v1/agents/:id/inputs below the manifest's
    inputs_log_size) and re-sealed: sha256 of its canonical body is its seal
  - completeness: the log is enumerated (GET /api/v1/log/leaves) and the agent's snapshot,
    decision, trade and call leaves of the season are exactly the inputs served; a missing or
    foreign record is named
  - the cycle's scorer re-runs over the inputs: every count and root of inputs, every measured
    value (return, sigma, drawdown, exposure, days, Brier, DNA, match) and every output
    (multiplier, score, …) must equal the manifest's
  - each creator input is a score sealed below inputs_log_size with the performance named
  - pooled totals: each pooled.balance of a measured snapshot is the sum of that stock over the
    season's snapshots at its hour (every agent's inputs fetched); a mismatch names the snapshot
  - with --rpc, N snapshots and N measured trades spread over the season (--remeasure N, default
    ${DEFAULT_REMEASURE}; 0 skips) are re-measured from the chain at their recorded block and every field
    compared: the block's hash and the pinned rule, balances, PriceOracle.priceAt, sell quotes
    (--quoter), the hour's flows; a trade from its transaction's swap logs. Needs --oracle, and an
    archive node for old blocks. Snapshots the agent signed record no block and fail

Exit codes:
  0  verified: all four steps (and with --deep every deep check) passed
  1  not verified: a step or a deep check failed, or the engine or chain could not be read (one line on stderr:
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
  --timeout SECONDS    deadline of each API or chain request, no retry (default ${DEFAULT_TIMEOUT_S})
  --deep               the deep checks above, after the four steps
  --remeasure N        with --deep and --rpc: snapshots (and trades) to re-measure, 0-1000 (default ${DEFAULT_REMEASURE})
  --oracle ADDRESS     with --remeasure: the PriceOracle the engine measured with (deployments/<network>.json)
  --quoter ADDRESS     with --remeasure: the Uniswap v3 QuoterV2 the engine marked holdings with`;

/** For tests: swaps the HTTP client, the on-chain head checker and the polling period. */
export interface VerifyDependencies {
  fetch?: typeof fetch;
  headChecker?: (rpc: string, registry: string, http: HttpOptions) => HeadChecker;
  pollMs?: number;
  rescore?: Rescore;
  remeasure?: Remeasure;
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
        deep: { type: "boolean" },
        remeasure: { type: "string" },
        oracle: { type: "string" },
        quoter: { type: "string" },
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

/** `--remeasure N`: only with --deep and --rpc; default 5 there, else 0. */
function remeasureOption(value: string | undefined, deep: boolean, rpc: string | undefined): number {
  if (value === undefined) return deep && rpc !== undefined ? DEFAULT_REMEASURE : 0;
  if (!deep || rpc === undefined) throw new UsageError("--remeasure goes with --deep and --rpc");
  if (!/^\d+$/.test(value) || Number(value) > 1000)
    throw new UsageError(`--remeasure must be a whole number of snapshots from 0 to 1000, got ${value}`);
  return Number(value);
}

function printDeep(checks: readonly DeepCheck[], out: NodeJS.WritableStream): void {
  if (checks.length === 0) return;
  for (const check of checks)
    out.write(`deep ${check.passed ? "passed" : "FAILED"}: ${check.name}: ${check.detail}\n`);
  const passed = checks.filter((c) => c.passed).length;
  out.write(`deep: ${passed} of ${checks.length} checks passed\n`);
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
    const remeasureCount = remeasureOption(values.remeasure, values.deep === true, rpc);
    for (const flag of ["oracle", "quoter"] as const) {
      const address = values[flag];
      if (address === undefined) continue;
      if (remeasureCount === 0) throw new UsageError(`--${flag} goes with --deep, --rpc and --remeasure`);
      if (!isAddress(address)) throw new UsageError(`--${flag} must be an address, got ${address}`);
    }
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
    const deepChecks = values.deep
      ? await verifyDeep({
          api,
          agent,
          season,
          http,
          manifest: report.manifest,
          rescore: dependencies.rescore ?? rescoreAgent,
          remeasure:
            rpc !== undefined && remeasureCount > 0
              ? {
                  count: remeasureCount,
                  chain: chainReader(rpc, http),
                  measure:
                    dependencies.remeasure ?? remeasurer({ oracle: values.oracle, quoter: values.quoter }),
                }
              : undefined,
        })
      : [];
    printDeep(deepChecks, io.stdout);
    const deepFailed = deepChecks.filter((c) => !c.passed).length;
    if (deepFailed > 0) {
      const stepsFailed = report.steps.filter((s) => !s.passed && !s.pending).length;
      io.stdout.write(
        `not verified: ${stepsFailed} of 4 steps and ${deepFailed} of ${deepChecks.length} deep checks failed\n`,
      );
      return EXIT.failed;
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
