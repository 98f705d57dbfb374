import { expect } from "chai";
import { addTestSeason, SEASON_END, SEASON_START } from "../../../test-support/records/testing";
import type { Store } from "../../store/open";
import { closeSeason } from "../../store/queries/seasons";
import { testBackends } from "../../../test-support/store/testing";
import { runCycle } from "../run";
import { anchorStep, CYCLE_SECONDS, modesStep, riskStep, scoreStep, STEP_ORDER } from "./index";
import { seasonsInTurn } from "./step";
import { CountingScorer, FakeKeeper } from "../../../test-support/cycle/testing";

describe("cycle steps: one order", () => {
  it("runs ingest → anchor → settle → score → risk → referee → stewardship → modes", () => {
    expect(STEP_ORDER).to.deep.equal([
      "closes",
      "measure",
      "anchor",
      "settle",
      "score",
      "risk",
      "referee",
      "stewardship",
      "modes",
    ]);
  });
});

for (const backend of testBackends()) {
  describe(`cycle steps on ${backend.name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await backend.open();
    });
    afterEach(async () => store.close());

    it("refuses a step list out of order, with a step twice, or without the anchor step", async () => {
      const now = () => SEASON_START;
      const lists = [
        [riskStep(), anchorStep()],
        [anchorStep(), scoreStep(new CountingScorer()), scoreStep(new CountingScorer())],
        [scoreStep(new CountingScorer())],
        [],
      ];
      for (const steps of lists) {
        const error = await runCycle({ store, steps, now }).catch((e: unknown) => e);
        expect(error, steps.map((s) => s.name).join(",")).to.be.instanceOf(RangeError);
        expect((error as Error).message).to.match(
          /^cycle steps must include "anchor" and follow closes → measure → anchor/,
        );
      }
      expect(await store.log.size(store.db)).to.equal(0);
    });

    it("serves a season from its start until `tail` seconds after its close", async () => {
      await addTestSeason(store, "s1");
      await addTestSeason(store, "s2");
      await closeSeason(store.db, "s2", SEASON_START + 10 * 86400);
      const ids = async (at: number, tail = CYCLE_SECONDS) =>
        (await seasonsInTurn(store, at, tail)).map((s) => s.id).sort();
      expect(await ids(SEASON_START - 1)).to.deep.equal([]);
      expect(await ids(SEASON_START)).to.deep.equal(["s1", "s2"]);
      expect(await ids(SEASON_START + 10 * 86400 + CYCLE_SECONDS)).to.deep.equal(["s1", "s2"]);
      expect(await ids(SEASON_START + 10 * 86400 + CYCLE_SECONDS + 1)).to.deep.equal(["s1"]);
      expect(await ids(SEASON_END + CYCLE_SECONDS + 1)).to.deep.equal([]);
      expect(await ids(SEASON_END + 2 * CYCLE_SECONDS, 2 * CYCLE_SECONDS)).to.deep.equal(["s1"]);
    });

    it("with the mode step the report carries the mode and every step runs while active; without it, no mode", async () => {
      await addTestSeason(store);
      const scorer = new CountingScorer();
      const report = await runCycle({
        store,
        steps: [anchorStep(new FakeKeeper()), scoreStep(scorer), modesStep()],
        now: () => SEASON_START + 60,
      });
      expect(report.mode?.mode).to.equal("active");
      expect(scorer.headers).to.have.length(0); // no agent registered: the season has nothing to score
      const without = await runCycle({ store, steps: [anchorStep()], now: () => SEASON_START + 60 });
      expect(without).to.not.have.property("mode");
    });
  });
}
