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

  it("compares two rows exactly: rank difference, then −1, 1 or 0 by agent id", () => {
    const row = (rank: number | null, agent_id: string) => ({ rank, agent_id });
    expect(compareByRankThenAgent(row(2, "a"), row(5, "a"))).to.equal(-3);
    expect(compareByRankThenAgent(row(5, "a"), row(2, "z"))).to.equal(3);
    expect(compareByRankThenAgent(row(null, "a"), row(2, "z"))).to.equal(Infinity);
    expect(compareByRankThenAgent(row(2, "z"), row(null, "a"))).to.equal(-Infinity);
    expect(compareByRankThenAgent(row(null, "b"), row(null, "a"))).to.equal(1);
    expect(compareByRankThenAgent(row(1, "a"), row(1, "b"))).to.equal(-1);
    expect(compareByRankThenAgent(row(1, "b"), row(1, "a"))).to.equal(1);
    expect(compareByRankThenAgent(row(1, "a"), row(1, "a"))).to.equal(0);
  });

  it("ranks an all-unranked, a single and an all-tied list", () => {
    expect(competitionRanks([])).to.deep.equal([]);
    expect(competitionRanks([null, null])).to.deep.equal([null, null]);
    expect(competitionRanks([0])).to.deep.equal([1]);
    expect(competitionRanks([5, 5, 5])).to.deep.equal([1, 1, 1]);
    expect(competitionRanks([1, 2, 3, 3, 2, 1])).to.deep.equal([5, 3, 1, 1, 3, 5]);
  });
});
