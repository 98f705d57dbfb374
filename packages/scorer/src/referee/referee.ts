import { AugurError } from "../errors";
import { MONKEYS, OUTCOME_UNITS_PER_RETURN, RANKED_FROM_CALLS, REFEREE_METHOD } from "./constants";
import { cohortSeed, coinStream } from "./coin-stream";
import { compareCodePoints } from "./code-point-order";
import type { ParsedPrediction, ParsedRefereeInput } from "./input";
import { fitsExactDoubles, monkeySums, monkeySumsBig } from "./monkey-sums";
import { type MuEntry, type MuTable, muRows, muTable } from "./mu";
import { nearestRankQuantiles, type PercentileTally, percentileOf, type Quantiles } from "./percentile";
import { agentSchedule, type AgentSchedule } from "./schedule";

export type RefereeStatus = "proving" | "ranked";

/** One agent's standing inside its own cohort of monkeys. */
export interface RefereeAgentResult {
  readonly agent: string;
  readonly epoch: string | number;
  readonly scoredCalls: number;
  /** Calls whose slot + horizon has no close yet: neither scored nor counted. */
  readonly pendingCalls: number;
  /** Σr of the agent: the exact integer sum of its outcome units, divided by 10¹². */
  readonly sumR: number;
  readonly percentile: number;
  readonly monkeysBelow: number;
  readonly monkeysEqual: number;
  readonly status: RefereeStatus;
  readonly quantiles: Quantiles;
  /** Σr of monkey 0 … 2047, in that order. */
  readonly monkeySumsR: Float64Array;
}

/** Thrown when the agent asked about has no prediction in the input. */
export class UnknownAgentError extends AugurError {
  override readonly name = "UnknownAgentError";
  constructor(agent: string) {
    super("UNKNOWN_AGENT", `agent ${JSON.stringify(agent)} has no predictions in the input`, { agent });
  }
}

/** Percentile of the agent's Σr inside the 2,048 monkeys that shadow its scored schedule. */
export function scoreSchedule(
  epochText: string,
  epoch: string | number,
  schedule: AgentSchedule,
): RefereeAgentResult {
  const n = schedule.calls.length;
  const upUnits = Float64Array.from(schedule.calls, (call) => call.upUnits);
  const stream = coinStream(cohortSeed(epochText, schedule.agent), n, MONKEYS);
  let tally: PercentileTally;
  let agentSum: number;
  let sumsR: Float64Array;
  if (fitsExactDoubles(upUnits)) {
    agentSum = schedule.calls.reduce((sum, call) => sum + call.sign * call.upUnits, 0);
    const sums = monkeySums(upUnits, stream, MONKEYS);
    tally = percentileOf(agentSum, sums);
    sumsR = sums.map((units) => units / OUTCOME_UNITS_PER_RETURN);
  } else {
    const big = schedule.calls.reduce((sum, call) => sum + BigInt(call.sign * call.upUnits), 0n);
    const sums = monkeySumsBig(upUnits, stream, MONKEYS);
    tally = percentileOf(big, sums);
    agentSum = Number(big);
    sumsR = Float64Array.from(sums, (units) => Number(units) / OUTCOME_UNITS_PER_RETURN);
  }
  return {
    agent: schedule.agent,
    epoch,
    scoredCalls: n,
    pendingCalls: schedule.pendingCalls,
    sumR: agentSum / OUTCOME_UNITS_PER_RETURN,
    percentile: tally.percentile,
    monkeysBelow: tally.below,
    monkeysEqual: tally.equal,
    status: n < RANKED_FROM_CALLS ? "proving" : "ranked",
    quantiles: nearestRankQuantiles(sumsR),
    monkeySumsR: sumsR,
  };
}

function predictionsByAgent(input: ParsedRefereeInput): Map<string, ParsedPrediction[]> {
  const byAgent = new Map<string, ParsedPrediction[]>();
  for (const p of input.predictions) {
    const list = byAgent.get(p.agent);
    if (list) list.push(p);
    else byAgent.set(p.agent, [p]);
  }
  return byAgent;
}

/** One agent's result, as `augur referee detail` prints it. */
export function refereeAgent(input: ParsedRefereeInput, agent: string): RefereeAgentResult {
  const predictions = input.predictions.filter((p) => p.agent === agent);
  if (predictions.length === 0) throw new UnknownAgentError(agent);
  const schedule = agentSchedule(input, muTable(input), agent, predictions);
  return scoreSchedule(input.epochText, input.epoch, schedule);
}

/** Every agent's result (ranked first, then by percentile, Σr, agent id) and the mu table. */
export interface RefereeLeaderboard {
  readonly method: typeof REFEREE_METHOD;
  readonly epoch: string | number;
  readonly monkeys: number;
  readonly agents: readonly RefereeAgentResult[];
  readonly mu: readonly MuEntry[];
}

/** Leaderboard order: ranked before proving, then percentile and Σr high to low, then agent id. */
export function compareLeaderboardRows(
  a: Pick<RefereeAgentResult, "status" | "percentile" | "sumR" | "agent">,
  b: Pick<RefereeAgentResult, "status" | "percentile" | "sumR" | "agent">,
): number {
  return (
    (a.status === b.status ? 0 : a.status === "ranked" ? -1 : 1) ||
    b.percentile - a.percentile ||
    b.sumR - a.sumR ||
    compareCodePoints(a.agent, b.agent)
  );
}

export function refereeLeaderboard(input: ParsedRefereeInput): RefereeLeaderboard {
  const mu: MuTable = muTable(input);
  const agents = [...predictionsByAgent(input)].map(([agent, predictions]) =>
    scoreSchedule(input.epochText, input.epoch, agentSchedule(input, mu, agent, predictions)),
  );
  agents.sort(compareLeaderboardRows);
  return { method: REFEREE_METHOD, epoch: input.epoch, monkeys: MONKEYS, agents, mu: muRows(mu) };
}
