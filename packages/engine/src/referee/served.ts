import {
  parseRefereeInput,
  type RefereeAgentResult,
  type RefereeDetailJson,
  type RefereeInput,
  refereeDetailJson,
  refereeLeaderboard,
  refereeLeaderboardJson,
  type RefereeLeaderboardJson,
  seal,
} from "@augur/scorer";
import type { Kysely } from "kysely";
import type { Season } from "../store/queries/seasons";
import type { Database } from "../store/schema";
import { histogramOf, type RefereeHistogram } from "./histogram";
import { epochInput } from "./input";

/** One epoch computed once: the input file, leaderboard.json, and every agent's full result. */
export interface RefereeEpoch {
  readonly input: RefereeInput;
  readonly waitingCalls: number;
  readonly leaderboard: RefereeLeaderboardJson;
  readonly agents: ReadonlyMap<string, RefereeAgentResult>;
}

/**
 * `GET /api/v1/referee/:epoch/agents/:id`: the detail object of `augur referee detail --json
 * --monkeys` (every monkey's Σr, in monkey order), plus the counts and the histogram the site draws.
 */
export type RefereeAgentDetail = RefereeDetailJson & {
  readonly pending_calls: number;
  readonly monkeys_below: number;
  readonly monkeys_equal: number;
  readonly monkeys: readonly number[];
  readonly histogram: RefereeHistogram;
};

/** Runs the scorer's referee over the epoch's input built from the store (one source of truth). */
export async function refereeEpoch(db: Kysely<Database>, season: Season): Promise<RefereeEpoch> {
  const { input, waitingCalls } = await epochInput(db, season);
  const board = refereeLeaderboard(parseRefereeInput(input));
  return {
    input,
    waitingCalls,
    // Sealed like the CLI seals the file it reads: the canonical JSON of the input object.
    leaderboard: refereeLeaderboardJson(board, seal(input)),
    agents: new Map(board.agents.map((a) => [a.agent, a])),
  };
}

export function refereeAgentDetail(result: RefereeAgentResult): RefereeAgentDetail {
  return {
    ...refereeDetailJson(result),
    pending_calls: result.pendingCalls,
    monkeys_below: result.monkeysBelow,
    monkeys_equal: result.monkeysEqual,
    monkeys: [...result.monkeySumsR],
    histogram: histogramOf(result.monkeySumsR),
  };
}
