import { rescoreAgent } from "../cycle/rescore";
import { type DeepCheck, type Remeasure, type Rescore, verifyDeep } from "../verify/deep";
import type { ServedLeaf } from "../verify/deep-responses";
import type { HttpOptions } from "../verify/http";
import type { SeasonPooledSums } from "../verify/pooled";
import { type HeadChecker, verifyScore } from "../verify/verify-score";
import { errorLine } from "./main";

/** Exit codes, as `augur verify --help` and docs/engine.md list them. */
export const EXIT = { verified: 0, failed: 1, usage: 2, pending: 3 } as const;

/**
 * What `augur verify` checks for each agent, as parsed from its command line: plain data, so a
 * worker thread is given the same plan as this thread.
 */
export interface VerifyPlan {
  /** The engine's base URL (no `/api/v1`). */
  readonly api: string;
  readonly season: string;
  readonly timeoutMs: number;
  readonly waitMs: number;
  readonly deep: boolean;
  readonly chain?: { readonly rpc: string; readonly registry: string };
  /** With `--deep --rpc`: snapshots (and trades) to re-measure, when above 0. */
  readonly remeasure?: { readonly count: number; readonly oracle?: string; readonly quoter?: string };
}

/** For tests: swaps the HTTP client, the on-chain head checker, the polling period and the scorers. */
export interface VerifyDependencies {
  fetch?: typeof fetch;
  headChecker?: (rpc: string, registry: string, http: HttpOptions) => HeadChecker;
  pollMs?: number;
  rescore?: Rescore;
  remeasure?: Remeasure;
}

/**
 * What the agents one thread checks share (extended in place): the log enumerated so far, and the
 * season's snapshots summed for the pooled totals, so each is fetched once per thread, not once per agent.
 */
export interface ThreadShared {
  readonly logLeaves: ServedLeaf[];
  readonly pooledSums: Map<number, SeasonPooledSums>;
}

/** A thread's shared state, empty. */
export const threadShared = (): ThreadShared => ({ logLeaves: [], pooledSums: new Map() });

/**
 * The chain's modules (and ethers, which they load), required only with --rpc: a verify worker
 * without it starts lighter. `require`, not `import()`: the engine runs as CommonJS (tsx, or the
 * worker's esbuild bundle, which runs a required module when it is first required), and `import()`
 * would go to Node's ESM loader, which does not resolve our TypeScript.
 */
function chainModules() {
  /* eslint-disable @typescript-eslint/no-require-imports */
  return {
    registry: require("../verify/registry") as typeof import("../verify/registry"),
    remeasure: require("../verify/remeasure") as typeof import("../verify/remeasure"),
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
}

/** One agent checked: its exit code and every line printed for it. */
export interface AgentVerdict {
  readonly agent: string;
  readonly code: number;
  readonly text: string;
}

function deepLines(checks: readonly DeepCheck[]): string {
  if (checks.length === 0) return "";
  const lines = checks.map((c) => `deep ${c.passed ? "passed" : "FAILED"}: ${c.name}: ${c.detail}\n`);
  const passed = checks.filter((c) => c.passed).length;
  return `${lines.join("")}deep: ${passed} of ${checks.length} checks passed\n`;
}

/**
 * The four recompute steps of augur-score/v1 for one agent (and with `plan.deep` the deep checks),
 * each line given to `print` as soon as it is known; resolves to the exit code. An engine or chain
 * that cannot be read throws (one line). `shared`: what this thread's agents share.
 */
export async function verifyAgent(
  plan: VerifyPlan,
  agent: string,
  print: (text: string) => void,
  deps: VerifyDependencies = {},
  shared: ThreadShared = threadShared(),
): Promise<number> {
  const { api, season } = plan;
  const http: HttpOptions = { fetch: deps.fetch, timeoutMs: plan.timeoutMs };
  // The chain's modules (and what they load) only with --rpc: a worker without it starts lighter.
  const chain = plan.chain
    ? (deps.headChecker ?? chainModules().registry.registryHeadChecker)(
        plan.chain.rpc,
        plan.chain.registry,
        http,
      )
    : undefined;
  const report = await verifyScore({
    api,
    agent,
    season,
    chain,
    http,
    waitMs: plan.waitMs,
    pollMs: deps.pollMs,
  });
  print(`augur verify: agent ${agent}, season ${season}, seal ${report.seal}\n`);
  for (const step of report.steps) {
    const outcome = step.pending ? "pending" : step.passed ? "passed" : "FAILED";
    print(`step ${step.step} ${outcome}: ${step.summary}\n`);
    for (const line of step.details) print(`  ${line}\n`);
  }
  const remeasure = plan.remeasure;
  const remeasuring = plan.chain && remeasure && remeasure.count > 0 ? chainModules().remeasure : undefined;
  const deepChecks = plan.deep
    ? await verifyDeep({
        api,
        agent,
        season,
        http,
        manifest: report.manifest,
        rescore: deps.rescore ?? rescoreAgent,
        logLeaves: shared.logLeaves,
        pooledSums: shared.pooledSums,
        remeasure:
          plan.chain && remeasure && remeasuring
            ? {
                count: remeasure.count,
                chain: remeasuring.chainReader(plan.chain.rpc, http),
                measure:
                  deps.remeasure ??
                  remeasuring.remeasurer({ oracle: remeasure.oracle, quoter: remeasure.quoter }),
              }
            : undefined,
      })
    : [];
  print(deepLines(deepChecks));
  const deepFailed = deepChecks.filter((c) => !c.passed).length;
  if (deepFailed > 0) {
    const stepsFailed = report.steps.filter((s) => !s.passed && !s.pending).length;
    print(
      `not verified: ${stepsFailed} of 4 steps and ${deepFailed} of ${deepChecks.length} deep checks failed\n`,
    );
    return EXIT.failed;
  }
  if (report.passed) {
    print(`verified: score ${JSON.stringify(report.score)}\n`);
    return EXIT.verified;
  }
  if (report.pending) {
    print(
      `pending: steps 1-3 passed; the score's anchor is not mined yet (run again later, or pass --wait)\n`,
    );
    return EXIT.pending;
  }
  print(`not verified: ${report.steps.filter((s) => !s.passed).length} of 4 steps failed\n`);
  return EXIT.failed;
}

/**
 * One agent of many checked: as `verifyAgent`, its lines kept together; an engine or chain that
 * cannot be read fails this agent alone, its one line ending the agent's lines. The agents one
 * thread checks share `shared`: the log is enumerated and the season summed once, not once per agent.
 */
export async function verifyAgentOfMany(
  plan: VerifyPlan,
  agent: string,
  deps: VerifyDependencies,
  shared: ThreadShared,
): Promise<AgentVerdict> {
  let text = "";
  const print = (line: string) => (text += line);
  try {
    return { agent, code: await verifyAgent(plan, agent, print, deps, shared), text };
  } catch (error) {
    print(`augur verify: agent ${agent}, season ${plan.season}: not verified: ${errorLine(error)}\n`);
    return { agent, code: EXIT.failed, text };
  }
}
