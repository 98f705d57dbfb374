import { expect } from "chai";
import hre from "hardhat";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deployAugur } from "../../deploy";
import { DeployConfigError, stakeUnits } from "../../deploy/config";
import { buildReplica } from "../shared/replica";
import { hardhatConfig } from "../shared/augur";
import { DEFAULT_STOCKS } from "../../scripts/replica/stocks";

// Sources disagree on Robinhood Chain's USDG decimals (6 or 18): the deploy reads them from the token.
describe("deploy: USDG decimals read from the chain (6 and 18)", function () {
  it("stakeUnits scales whole USDG by the token's decimals and refuses amounts finer than it holds", function () {
    expect(stakeUnits("100", 6)).to.equal(100_000_000n);
    expect(stakeUnits("100", 18)).to.equal(100n * 10n ** 18n);
    expect(stakeUnits("12.5", 6)).to.equal(12_500_000n);
    expect(stakeUnits("0.0000001", 18)).to.equal(10n ** 11n);
    expect(() => stakeUnits("0.0000001", 6)).to.throw(
      DeployConfigError,
      /0\.0000001 has more decimals than USDG's 6/,
    );
  });

  for (const usdgDecimals of [6, 18]) {
    it(`a ${usdgDecimals}-decimal USDG gets a minimum stake of 100 whole USDG, recorded with its decimals`, async function () {
      const replica = await buildReplica({ usdgDecimals, stocks: DEFAULT_STOCKS.slice(0, 1), hours: 1 });
      const deployment = await deployAugur(hre, {
        replica,
        deploymentsDir: mkdtempSync(join(tmpdir(), "augur-deployments-")),
        config: hardhatConfig(),
      });
      const ledger = await hre.ethers.getContractAt("CallLedger", deployment.callLedger);
      const stake = await ledger.minStake();
      expect(stake).to.equal(100n * 10n ** BigInt(usdgDecimals));
      expect(hre.ethers.formatUnits(stake, await replica.usdg.decimals())).to.equal("100.0");
      expect(deployment.checks.every((c) => c.ok)).to.equal(true);
    });
  }
});
