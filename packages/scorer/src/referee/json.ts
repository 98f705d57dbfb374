import type { Hex32 } from "../hex";
import type { Quantiles } from "./percentile";
import type { RefereeAgentResult, RefereeLeaderboard, RefereeStatus } from "./referee";

/** The pinned object of `augur referee detail --json`. */
export interface RefereeDetailJson {
  agent: string;
  epoch: string | number;
  scored_calls: number;
  sum_r: number;
  percentile: number;
  status: RefereeStatus;
  quantiles: Quantiles;
}

export function refereeDetailJson(result: RefereeAgentResult): RefereeDetailJson {
  return {
    agent: result.agent,
    epoch: result.epoch,
    scored_calls: result.scoredCalls,
    sum_r: result.sumR,
    percentile: result.percentile,
    status: result.status,
    quantiles: result.quantiles,
  };
}

/** leaderboard.json: every agent's result (plus its pending calls), the mu table, the input's seal. */
export interface RefereeLeaderboardJson {
  method: string;
  epoch: string | number;
  monkeys: number;
  input_seal: Hex32;
  mu: { pair: string; horizon_h: number; mu: number | null; slots: number }[];
  agents: (RefereeDetailJson & { pending_calls: number })[];
}

export function refereeLeaderboardJson(board: RefereeLeaderboard, inputSeal: Hex32): RefereeLeaderboardJson {
  return {
    method: board.method,
    epoch: board.epoch,
    monkeys: board.monkeys,
    input_seal: inputSeal,
    mu: board.mu.map((m) => ({ pair: m.pair, horizon_h: m.horizonH, mu: m.mu, slots: m.slots })),
    agents: board.agents.map((a) => ({ ...refereeDetailJson(a), pending_calls: a.pendingCalls })),
  };
}
