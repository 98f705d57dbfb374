import { expect } from "chai";
import { TEST_NOW } from "../../../test-support/records/testing";
import type { Store } from "../../store/open";
import { closeSeason } from "../../store/queries/seasons";
import { testBackends } from "../../../test-support/store/testing";
import { addSeasonWithOneAgent, CountingScorer, FakeKeeper } from "../../../test-support/cycle/testing";
import { runCycle } from "../run";
import { anchorStep, CYCLE_SECONDS, scoreStep } from "./index";

for (const backend of testBackends()) {
  describe(`score step on ${backend.name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await backend.open();
      await addSeasonWithOneAgent(store);
    });
    afterEach(async () => store.close());

    it("scores a closed season once more in the hour after its close, then never again", async () => {
      const keeper = new FakeKeeper();
      const closedAt = Math.floor(TEST_NOW / CYCLE_SECONDS) * CYCLE_SECONDS;
      await closeSeason(store.db, "s1", closedAt);
      const cycle = async (at: number) => {
        const scorer = new CountingScorer();
        const report = await runCycle({
          store,
          steps: [anchorStep(keeper), scoreStep(scorer)],
          now: () => at,
        });
        return [report.scoredSeasons, scorer.headers.length];
      };
      expect(await cycle(closedAt + CYCLE_SECONDS + 10)).to.deep.equal([["s1"], 1]);
      expect(await cycle(closedAt + CYCLE_SECONDS + 20)).to.deep.equal([[], 0]); // same hour: already scored
      expect(await cycle(closedAt + 2 * CYCLE_SECONDS)).to.deep.equal([[], 0]); // past the last hour
    });
  });
}
