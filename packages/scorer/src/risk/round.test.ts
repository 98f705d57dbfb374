import { expect } from "chai";
import { blankVault, indexOf } from "./arbitraries.test-util";
import { roundReading, roundScore } from "./round";
import { scoreVaults } from "./score-vaults";

describe("published precision", () => {
  it("readings carry 6 decimals, scores 1; null stays null", () => {
    expect(roundReading(0.30000000000000004)).to.equal(0.3);
    expect(roundReading(1 / 3)).to.equal(0.333333);
    expect(roundReading(null)).to.equal(null);
    expect(roundScore(34.65346)).to.equal(34.7);
  });

  it("rows publish the rounded readings, and the total is computed from them", () => {
    const [row] = scoreVaults([
      blankVault("v", {
        holder_index: indexOf([1, 0.97]),
        liquidation_cushion: 1,
        largest_depositor_share: 0.4,
        days_observed: 30,
        days_traded: 21,
      }),
    ]).rows;
    expect(row!.components).to.deep.include({ worst_fall: 0.06, largest_depositor: 0.2, stopped: 0.3 });
    expect(row!.score).to.equal(Math.round((1000 * (2500 * 0.06 + 1200 * 0.2 + 800 * 0.3)) / 6250) / 10);
  });
});
