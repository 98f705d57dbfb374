import { expect } from "chai";
import { blankVault, indexOf } from "./arbitraries.test-util";
import { summariseCoverage } from "./coverage";
import { scoreVaults } from "./score-vaults";

describe("coverage", () => {
  it('"Scoring covers … of the capital on this page but only … of the vaults": the share of capital scored, the share of vaults scored and the unscored count', () => {
    const scored = { holder_index: indexOf([1, 0.9]), free_share: 1, liquidation_cushion: 1 };
    const vaults = [
      blankVault("big", { tvl_usd: 700, ...scored }),
      blankVault("mid", { tvl_usd: 100, ...scored }),
      blankVault("new", { tvl_usd: 150 }),
      blankVault("tiny", { tvl_usd: 50 }),
    ];
    expect(scoreVaults(vaults).coverage).to.deep.equal({ capital_share: 0.8, vault_share: 0.5, unscored: 2 });
  });

  it("has no shares to give for no vaults or no capital", () => {
    expect(summariseCoverage([], [])).to.deep.equal({ capital_share: null, vault_share: null, unscored: 0 });
    const { rows } = scoreVaults([blankVault("empty")]);
    expect(summariseCoverage([blankVault("empty")], rows)).to.deep.equal({
      capital_share: null,
      vault_share: 0,
      unscored: 1,
    });
  });

  it("counts a row with no vault beside it as a vault of no capital (it does not throw)", () => {
    const { rows } = scoreVaults([blankVault("empty")]);
    expect(summariseCoverage([], rows)).to.deep.equal({ capital_share: null, vault_share: 0, unscored: 1 });
  });
});
