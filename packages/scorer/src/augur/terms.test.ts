import { expect } from "chai";
import fc from "fast-check";
import { AUGUR_SCORE_V1 as F } from "./formula";
import {
  computeTerms,
  overallScore,
  strategyMultiplier,
  weightedTotal,
  weightsUsed,
  type TermInputs,
} from "./terms";

const flat: TermInputs = {
  return: 0,
  sigma: 0,
  max_drawdown: 0,
  exposure: 0.5,
  days: 21,
  brier: null,
  creator_performances: [],
};

describe("augur terms", () => {
  describe("the seed's performance numbers", () => {
    const performance = (R: number) => computeTerms({ ...flat, return: R }, F).performance!;
    it("a flat season scores 50 on performance", () => expect(performance(0)).to.equal(50));
    it("a +4% season scores 70", () => expect(performance(0.04)).to.be.closeTo(70, 1e-9));
    it("+10% or better scores 100", () => {
      expect(performance(0.1)).to.equal(100);
      expect(performance(0.35)).to.equal(100);
    });
    it("-10% or worse scores 0", () => {
      expect(performance(-0.1)).to.equal(0);
      expect(performance(-0.6)).to.equal(0);
    });
  });

  it("a creator's first agent, before any call resolves, weighs performance 0.41, risk 0.29, consistency 0.18, longevity 0.12", () => {
    const used = weightsUsed(computeTerms(flat, F), F);
    expect(Object.keys(used)).to.deep.equal(["performance", "risk", "consistency", "longevity"]);
    expect(used.performance).to.equal(0.35 / 0.85);
    expect(used.performance!.toFixed(2)).to.equal("0.41");
    expect(used.risk!.toFixed(2)).to.equal("0.29");
    expect(used.consistency!.toFixed(2)).to.equal("0.18");
    expect(used.longevity!.toFixed(2)).to.equal("0.12");
  });

  it("uses all six weights as given once calibration and creator are measured", () => {
    const terms = computeTerms({ ...flat, brier: 0.1, creator_performances: [60, 80] }, F);
    expect(terms.creator).to.equal(70);
    expect(terms.calibration).to.be.closeTo(60, 1e-9);
    const used = weightsUsed(terms, F);
    expect(used.calibration).to.be.closeTo(0.1, 1e-12);
    expect(used.creator).to.be.closeTo(0.05, 1e-12);
  });

  it("judges risk per unit of exposure: the same sigma and drawdown cost more with less money at work", () => {
    const busy = computeTerms({ ...flat, sigma: 0.01, max_drawdown: 0.05, exposure: 1 }, F);
    const idle = computeTerms({ ...flat, sigma: 0.01, max_drawdown: 0.05, exposure: 0.5 }, F);
    // 0.5 × (1 − 0.01/0.05) + 0.5 × (1 − 0.05/0.20) = 0.775; per half the exposure: 0.5 × 0.6 + 0.5 × 0.5
    expect(busy.risk).to.be.closeTo(77.5, 1e-9);
    expect(idle.risk).to.be.closeTo(55, 1e-9);
    expect(busy.consistency).to.be.closeTo(75, 1e-9);
    expect(idle.consistency).to.be.closeTo(50, 1e-9);
  });

  it("longevity is full at 21 days and proportional before", () => {
    expect(computeTerms({ ...flat, days: 10.5 }, F).longevity).to.equal(50);
    expect(computeTerms({ ...flat, days: 40 }, F).longevity).to.equal(100);
  });

  it("multiplier = 0.8 + 0.2 × match; overall rounds to one decimal", () => {
    expect(strategyMultiplier(1, F)).to.equal(1);
    expect(strategyMultiplier(0, F)).to.equal(0.8);
    expect(overallScore(79.41176470588235, 1, F)).to.equal(79.4);
    expect(overallScore(79.41176470588235, 0.8, F)).to.equal(63.5);
    // That weighted total is the flat season's: (0.35 × 50 + 0.25 × 100 + 0.15 × 100 + 0.1 × 100) / 0.85
    expect(weightedTotal(computeTerms(flat, F), F)).to.equal(67.5 / 0.85);
  });

  it("property: every term and the weighted total lie in [0, 100] for any measured values", () => {
    const measured = fc.record({
      return: fc.double({ min: -1, max: 50, noNaN: true }),
      sigma: fc.double({ min: 0, max: 10, noNaN: true }),
      max_drawdown: fc.double({ min: 0, max: 1, noNaN: true }),
      exposure: fc.double({ min: 0.02, max: 1, noNaN: true }),
      days: fc.double({ min: 0, max: 400, noNaN: true }),
      brier: fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
      creator_performances: fc.array(fc.double({ min: 0, max: 100, noNaN: true }), { maxLength: 4 }),
    });
    fc.assert(
      fc.property(measured, fc.double({ min: 0, max: 1, noNaN: true }), (m, match) => {
        const terms = computeTerms(m, F);
        for (const term of Object.values(terms)) if (term !== null) expect(term).to.be.within(0, 100);
        const weighted = weightedTotal(terms, F);
        expect(weighted).to.be.within(0, 100 + 1e-9);
        expect(overallScore(weighted, strategyMultiplier(match, F), F)).to.be.within(0, 100);
      }),
    );
  });
});
