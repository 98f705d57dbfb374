import { expect } from "chai";
import { AugurScorer } from "../../cycle/augur-scorer";
import { runCycle } from "../../cycle/run";
import { anchorStep, scoreStep } from "../../cycle/steps";
import { buildApp } from "../../api/app";
import { TEST_CHAIN_ID } from "../../../test-support/records/testing";
import { SITE_NOW, SITE_SEASON, seededSiteStore } from "../../../test-support/site/testing";

describe("agent page", () => {
  it("shows a score the keeper has not anchored yet as pending, with its leaf", async () => {
    const store = await seededSiteStore();
    // A later hour scored with no keeper: the new manifests are in the log, in no anchor.
    const later = SITE_NOW + 2 * 3600;
    await runCycle({ store, steps: [anchorStep(), scoreStep(new AugurScorer())], now: () => later });
    const app = await buildApp({ store, chainId: TEST_CHAIN_ID, now: () => later });
    try {
      const api = (await app.inject(`/api/v1/agents/ada/score?season_id=${SITE_SEASON}`)).json() as {
        seal: string;
        leafIndex: number;
        anchor: { status: string };
      };
      expect(api.anchor.status).to.equal("pending");
      const page = (await app.inject(`/agents/ada?season=${SITE_SEASON}`)).body.replace(/\s+/g, " ");
      expect(page).to.contain('id="anchor-status">pending</span>');
      expect(page).to.contain(`sits at leaf ${api.leafIndex} of the log`);
      expect(page).to.contain(api.seal);
    } finally {
      await app.close();
      await store.close();
    }
  });
});
