import { join } from "node:path";
import { inWorker } from "../cycle/in-worker";
import { contiguousShares } from "../cycle/score-pool";
import {
  type AgentVerdict,
  type VerifyDependencies,
  type VerifyPlan,
  threadShared,
  verifyAgentOfMany,
} from "./verify-agent";

/** One worker's share: the plan and its agents, in order. */
export interface VerifyShare {
  readonly plan: VerifyPlan;
  readonly agents: readonly string[];
}

const WORKER_SCRIPT = join(__dirname, "verify-worker.ts");

/**
 * `augur verify` over many agents: the agents are split into contiguous shares across `workers`
 * worker threads (as `augur score --workers` splits a season, cycle/score-pool.ts), each worker
 * checks its share's agents one after another, and the verdicts come back in the order of
 * `agents` whatever the number of workers: each agent's lines depend only on the engine and the
 * chain. `onVerdict` hears of each agent as it is done. With one worker or one agent, the agents
 * are checked in this thread (with `deps`: the test doubles reach no worker).
 */
export async function verifyAgents(
  plan: VerifyPlan,
  agents: readonly string[],
  workers: number,
  onVerdict: (verdict: AgentVerdict) => void,
  deps: VerifyDependencies = {},
): Promise<AgentVerdict[]> {
  if (!Number.isSafeInteger(workers) || workers < 1)
    throw new RangeError(`workers must be ≥ 1, not ${workers}`);
  if (workers === 1 || agents.length <= 1) {
    const verdicts: AgentVerdict[] = [];
    const shared = threadShared();
    for (const agent of agents) {
      verdicts.push(await verifyAgentOfMany(plan, agent, deps, shared));
      onVerdict(verdicts[verdicts.length - 1]!);
    }
    return verdicts;
  }
  const found = new Map<string, AgentVerdict>();
  const shares = contiguousShares(agents, workers).map((share) => {
    const text = JSON.stringify({ plan, agents: share } satisfies VerifyShare);
    return inWorker<{ done: true }>(WORKER_SCRIPT, text, {
      onNote: (note) => {
        const verdict = note as AgentVerdict;
        found.set(verdict.agent, verdict);
        onVerdict(verdict);
      },
    });
  });
  await Promise.all(shares);
  return agents.map((agent) => found.get(agent)!);
}
