import { expect } from "chai";
import type { Hex32 } from "../hex";
import { refereeDetailJson, refereeLeaderboardJson } from "./json";
import { nearestRankQuantiles } from "./percentile";
import type { RefereeAgentResult, RefereeLeaderboard } from "./referee";

const quantiles = nearestRankQuantiles([-0.5, 0, 0.25, 1]);

function result(agent: string, over: Partial<RefereeAgentResult> = {}): RefereeAgentResult {
  return {
    agent,
    epoch: "2026-W49",
    scoredCalls: 12,
    pendingCalls: 3,
    sumR: 0.125,
    percentile: 97.5,
    monkeysBelow: 1996,
    monkeysEqual: 1,
    status: "ranked",
    quantiles,
    monkeySumsR: new Float64Array([0.5, -0.25]),
    ...over,
  };
}

const seal = `0x${"ab".repeat(32)}` as Hex32;

describe("referee JSON: the pinned detail and leaderboard objects", () => {
  it("detail: the seven pinned fields in snake case, nothing of the monkeys' sums", () => {
    // The key order is pinned by the CLI's `referee detail --json` test.
    expect(refereeDetailJson(result("alice"))).to.deep.equal({
      agent: "alice",
      epoch: "2026-W49",
      scored_calls: 12,
      sum_r: 0.125,
      percentile: 97.5,
      status: "ranked",
      quantiles,
    });
  });

  it("leaderboard: method, epoch, monkeys, seal, mu rows and agents with their pending calls", () => {
    const board: RefereeLeaderboard = {
      method: "referee/v1",
      epoch: 49,
      monkeys: 2048,
      agents: [
        result("alice"),
        result("bob", { status: "proving", pendingCalls: 0, scoredCalls: 4, epoch: 49 }),
      ],
      mu: [
        { pair: "BTC-USD", horizonH: 1, mu: 0.0015, slots: 167 },
        { pair: "ETH-USD", horizonH: 24, mu: null, slots: 0 },
      ],
    };
    const json = refereeLeaderboardJson(board, seal);
    expect(json).to.deep.equal({
      method: "referee/v1",
      epoch: 49,
      monkeys: 2048,
      input_seal: seal,
      mu: [
        { pair: "BTC-USD", horizon_h: 1, mu: 0.0015, slots: 167 },
        { pair: "ETH-USD", horizon_h: 24, mu: null, slots: 0 },
      ],
      agents: [
        { ...refereeDetailJson(board.agents[0]!), pending_calls: 3 },
        {
          agent: "bob",
          epoch: 49,
          scored_calls: 4,
          sum_r: 0.125,
          percentile: 97.5,
          status: "proving",
          quantiles,
          pending_calls: 0,
        },
      ],
    });
    expect(Object.keys(json)).to.deep.equal(["method", "epoch", "monkeys", "input_seal", "mu", "agents"]);
  });
});
