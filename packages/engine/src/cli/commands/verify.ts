import { parseArgs } from "node:util";
import { isAddress } from "ethers";
import { DEFAULT_SCORE_WORKERS } from "../../cycle/score-pool";
import { fetchSeasonAgents } from "../../verify/deep-responses";
import { type Command, UsageError } from "../command";
import { workersOption } from "../options";
import { EXIT, type VerifyDependencies, type VerifyPlan, verifyAgent } from "../verify-agent";
import { verifyAgents } from "../verify-agents";

const DEFAULT_TIMEOUT_S = 10;
/** `--wait` without seconds: one hourly cycle, the longest a score waits for its anchor. */
const DEFAULT_WAIT_S = 3600;
/** `--deep --rpc` re-measures this many snapshots unless `--remeasure N` says otherwise. */
const DEFAULT_REMEASURE = 5;
/** Over many agents, a progress line on stderr at most this often (and when the last is done). */
const PROGRESS_MS = 2000;

const usage = `Usage: augur verify --api URL --agent ID --season S [--rpc URL --registry ADDRESS]
                    [--wait [SECONDS]] [--timeout SECONDS]
                    [--deep [--remeasure N] [--oracle ADDRESS] [--quoter ADDRESS]]
       augur verify --api URL (--agent ID --agent ID … | --all-agents) --season S [--workers N] …

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

Many agents (--agent more than once, or --all-agents: every agent on the season's leaderboard,
by agent id): the same checks for each, split across --workers N worker threads in contiguous
shares of the agents (as augur score --workers splits a season). Each agent's lines are printed
together, in the order of the agents, the same for any N; an agent whose engine answers or chain
reads fail gets one "not verified: <why>" line and the others go on. Progress goes to stderr
("K of N agents checked", every 2 s); the last line counts the verdicts:
  augur verify: N agents: V verified, F not verified, P pending

Exit codes:
  0  verified: all four steps (and with --deep every deep check) passed
  1  not verified: a step or a deep check failed, or the engine or chain could not be read (one line on stderr:
     unreachable, no answer within --timeout, an HTTP error, a --registry that is no AnchorRegistry)
  2  bad command line
  3  pending: steps 1-3 passed, the score's own anchor is not mined yet (try again, or --wait)
  Over many agents: 1 if any agent is not verified, else 3 if any is pending, else 0.

Options:
  --api URL            the engine: its origin (http://127.0.0.1:8787) or its API base
                       (http://127.0.0.1:8787/api/v1, as \`npm start\` prints it)
  --agent ID           the agent; more than once for several agents
  --all-agents         every agent with a score in the season (instead of --agent)
  --workers N          over many agents: worker threads sharing them, a whole number ≥ 1
                       (default: one per core); the output is the same for any N
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

/** For tests: swaps the HTTP client, the on-chain head checker, the polling period and the scorers. */
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
        agent: { type: "string", multiple: true },
        "all-agents": { type: "boolean" },
        workers: { type: "string" },
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

/** The agents named (`--agent` repeated, first mention kept), or with `--all-agents` none yet. */
function agentsOption(agents: string[] | undefined, all: boolean | undefined): string[] {
  if (all && agents !== undefined) throw new UsageError("--agent and --all-agents go apart");
  for (const agent of agents ?? [])
    if (agent === "") throw new UsageError("--agent must name an agent, got an empty id");
  return [...new Set(agents)];
}

/** Many agents: each agent's lines in order, progress on stderr, a last line counting verdicts. */
async function verifyMany(
  plan: VerifyPlan,
  named: string[],
  workers: number,
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): Promise<number> {
  const http = { fetch: dependencies.fetch, timeoutMs: plan.timeoutMs };
  const agents = named.length > 0 ? named : await fetchSeasonAgents(plan.api, plan.season, http);
  if (agents.length === 0) throw new Error(`season ${plan.season} has no scored agent to verify`);
  const shared = Math.min(workers, agents.length);
  io.stderr.write(`augur verify: ${agents.length} agents of season ${plan.season}, ${shared} worker(s)\n`);
  let done = 0;
  let said = Date.now();
  const verdicts = await verifyAgents(
    plan,
    agents,
    workers,
    () => {
      done += 1;
      if (done < agents.length && Date.now() - said < PROGRESS_MS) return;
      said = Date.now();
      io.stderr.write(`augur verify: ${done} of ${agents.length} agents checked\n`);
    },
    dependencies,
  );
  for (const verdict of verdicts) io.stdout.write(verdict.text);
  const count = (code: number) => verdicts.filter((v) => v.code === code).length;
  const failed = count(EXIT.failed);
  const pending = count(EXIT.pending);
  io.stdout.write(
    `augur verify: ${agents.length} agents: ${count(EXIT.verified)} verified, ${failed} not verified, ${pending} pending\n`,
  );
  return failed > 0 ? EXIT.failed : pending > 0 ? EXIT.pending : EXIT.verified;
}

export const command: Command = {
  name: "verify",
  summary: "Recompute and check sealed scores, one agent or many, against the engine and the chain",
  usage,
  async run(argv, io) {
    const values = parse(argv);
    const { season, rpc, registry } = values;
    if (!values.api || (!values.agent && !values["all-agents"]) || !season)
      throw new UsageError("--api, --agent and --season are required");
    const agents = agentsOption(values.agent, values["all-agents"]);
    const workers = workersOption(values.workers, DEFAULT_SCORE_WORKERS);
    const api = apiBase(values.api);
    if ((rpc === undefined) !== (registry === undefined))
      throw new UsageError("--rpc and --registry go together");
    if (registry !== undefined && !isAddress(registry))
      throw new UsageError(`--registry must be an address, got ${registry}`);
    const timeoutMs = seconds(values.timeout, "--timeout", DEFAULT_TIMEOUT_S, 0.001) * 1000;
    const waitMs = seconds(values.wait, "--wait", 0, 0) * 1000;
    const remeasureCount = remeasureOption(values.remeasure, values.deep === true, rpc);
    for (const flag of ["oracle", "quoter"] as const) {
      const address = values[flag];
      if (address === undefined) continue;
      if (remeasureCount === 0) throw new UsageError(`--${flag} goes with --deep, --rpc and --remeasure`);
      if (!isAddress(address)) throw new UsageError(`--${flag} must be an address, got ${address}`);
    }
    const plan: VerifyPlan = {
      api,
      season,
      timeoutMs,
      waitMs,
      deep: values.deep === true,
      chain: rpc !== undefined && registry !== undefined ? { rpc, registry } : undefined,
      remeasure: { count: remeasureCount, oracle: values.oracle, quoter: values.quoter },
    };
    if (waitMs > 0) io.stderr.write(`augur verify: waiting up to ${waitMs / 1000} s for a pending anchor\n`);
    if (values["all-agents"] || agents.length > 1) return verifyMany(plan, agents, workers, io);
    return verifyAgent(plan, agents[0]!, (text) => io.stdout.write(text), dependencies);
  },
};
