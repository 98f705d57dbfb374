import { expect } from "chai";
import fc from "fast-check";
import { scoreSeason, validateSeasonInput } from "@augur/scorer";
import { fakeSeal, makeSeason } from "@augur/scorer/src/augur/fixture";
import { arbAgentSpec } from "@augur/scorer/src/augur/fixture-arb";
import { contiguousShares, type PoolPhases, scoreSeasonInWorkers, startScoreWorkers } from "./score-pool";

// One random season (fixed seed: workers cost a thread start each, so this is not a property):
// seven agents of two creators, with prior sealed rows, so creator inputs cross the shares.
const specs = fc.sample(fc.tuple(...Array.from({ length: 7 }, (_, k) => arbAgentSpec(`agent-${k}`))), {
  numRuns: 1,
  seed: 22,
})[0]!;
const season = validateSeasonInput(
  makeSeason(specs, {
    prior_scores: specs.slice(0, 4).map((s, k) => ({
      agent: s.id,
      season_id: "s0",
      performance: 0.01 * (k + 1),
      seal: fakeSeal(k + 1),
      sealed_at: "2026-10-31T00:00:00Z",
    })),
  }),
);

describe("scoring a season across worker threads", () => {
  it("gives the one-thread output byte for byte with 2 workers", async () => {
    const one = JSON.stringify(scoreSeason(season));
    expect(JSON.stringify(await scoreSeasonInWorkers(season, 2, 0))).to.equal(one);
    expect(
      JSON.parse(one).rows.some((r: { manifest: { measured: unknown } }) => r.manifest.measured),
    ).to.equal(true);
  });

  it("gives the one-thread output with 3 workers started ahead and sent one agent a batch", async () => {
    let phases: PoolPhases | undefined;
    const three = await scoreSeasonInWorkers(season, 3, 0, {
      started: startScoreWorkers(2),
      batchRecords: 1,
      onPhases: (p) => (phases = p),
    });
    expect(JSON.stringify(three)).to.equal(JSON.stringify(scoreSeason(season)));
    expect(phases!.here + phases!.workers.reduce((a, b) => a + b, 0)).to.equal(7);
    expect(phases!.workers).to.have.length(2);
    // Each worker is sent two batches at once (one agent each) before this thread scores its first.
    for (const agents of phases!.workers) expect(agents).to.be.at.least(2);
  });

  it("shares items in order, equal but the last, never an empty share", () => {
    expect(contiguousShares([1, 2, 3, 4], 3)).to.deep.equal([
      [1, 2],
      [3, 4],
    ]);
    expect(contiguousShares([1, 2, 3], 5)).to.deep.equal([[1], [2], [3]]);
    expect(contiguousShares([1, 2, 3, 4, 5], 2)).to.deep.equal([
      [1, 2, 3],
      [4, 5],
    ]);
    expect(contiguousShares([], 2)).to.deep.equal([]);
  });

  it("scores a small season in this thread, and refuses a worker count below 1", async () => {
    // 7 agents hold far fewer records than one worker is given at the least: no thread starts, and
    // one started ahead is stopped (else mocha would not exit).
    expect(JSON.stringify(await scoreSeasonInWorkers(season, 2))).to.equal(
      JSON.stringify(scoreSeason(season)),
    );
    let phases: PoolPhases | undefined;
    const options = { started: startScoreWorkers(1), onPhases: (p: PoolPhases) => (phases = p) };
    expect(JSON.stringify(await scoreSeasonInWorkers(season, 2, undefined, options))).to.equal(
      JSON.stringify(scoreSeason(season)),
    );
    expect(phases).to.equal(undefined);
    let error: unknown;
    await scoreSeasonInWorkers(season, 0).catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(RangeError);
  });
});
