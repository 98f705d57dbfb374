import { expect } from "chai";
import { compareByRankThenAgent, competitionRanks } from "./rank";

describe("augur ranks", () => {
  it("ties share a rank and the next rank skips (1, 1, 3)", () => {
    expect(competitionRanks([70, 80, 80, null, 60])).to.deep.equal([3, 1, 1, null, 4]);
  });

  it("sorts rows by rank, unranked last, then agent id", () => {
    const rows = [
      { rank: null, agent_id: "a" },
      { rank: 1, agent_id: "z" },
      { rank: 1, agent_id: "b" },
      { rank: 3, agent_id: "c" },
    ];
    expect(rows.sort(compareByRankThenAgent).map((r) => r.agent_id)).to.deep.equal(["b", "z", "c", "a"]);
  });
});
