import { expect } from "chai";
import { TEST_NOW } from "../../../test-support/records/testing";
import { addDays, dayOf } from "../../modes/days";
import { writeNotice } from "../../modes/notices";
import { modeNoticeBody } from "../../modes/records";
import type { Store } from "../../store/open";
import { testBackends } from "../../../test-support/store/testing";
import { addSeasonWithOneAgent, CountingScorer, FakeKeeper } from "../../../test-support/cycle/testing";
import { runCycle } from "../run";
import { anchorStep, modesStep, scoreStep } from "./index";

const DAY = 86_400;

for (const backend of testBackends()) {
  describe(`modes step on ${backend.name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await backend.open();
      await addSeasonWithOneAgent(store);
    });
    afterEach(async () => store.close());

    it("once wound down, the cycle runs only the anchor and mode steps", async () => {
      const keeper = new FakeKeeper();
      await writeNotice(
        store,
        "notice",
        dayOf(TEST_NOW),
        modeNoticeBody("wind-down", "test", dayOf(TEST_NOW)),
        TEST_NOW,
      );
      const at = TEST_NOW + 30 * DAY + 60;
      expect(dayOf(at)).to.equal(addDays(dayOf(TEST_NOW), 30));
      const cycle = async () => {
        const scorer = new CountingScorer();
        const lines: string[] = [];
        const report = await runCycle({
          store,
          steps: [anchorStep(keeper), scoreStep(scorer), modesStep()],
          now: () => at,
          progress: (line) => lines.push(line),
        });
        return { report, scorer, lines };
      };
      const first = await cycle();
      expect(first.report.mode?.mode).to.equal("archived"); // the keeper anchors at once: archived the same run
      const closing = await cycle();
      expect(closing.lines[0]).to.equal("mode: winding down or archived; nothing new is sealed or scored");
      expect(closing.scorer.headers).to.have.length(0);
      expect([
        closing.report.scoreRows,
        closing.report.mode?.mode,
        closing.report.mode?.written,
      ]).to.deep.equal([0, "archived", 0]);
    });
  });
}
