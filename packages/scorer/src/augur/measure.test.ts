import { expect } from "chai";
import { AUGUR_SCORE_V1 as F } from "./formula";
import { daysCompeting, measureCalibration, measureReturns, type SnapshotSeries } from "./measure";

const points = (navs: number[], flows: number[] = [], invested = 0.5): SnapshotSeries => ({
  nav: navs,
  flow: navs.map((_, i) => flows[i] ?? 0),
  invested: navs.map(() => invested),
});

describe("augur measures", () => {
  it("r_i = (NAV_i − flow_i) / NAV_{i−1} − 1, and R compounds them", () => {
    const m = measureReturns(points([100, 110, 99]), F);
    // r = 0.10, −0.10; R = 1.1 × 0.9 − 1 = −0.01
    expect(m.return).to.be.closeTo(-0.01, 1e-12);
  });

  it("deposits and withdrawals do not count as returns", () => {
    // +50 deposited, then 30 withdrawn: the book never gained or lost anything.
    const m = measureReturns(points([100, 150, 120], [0, 50, -30]), F);
    expect(m.return).to.equal(0);
    expect(m.sigma).to.equal(0);
    expect(m.max_drawdown).to.equal(0);
  });

  it("sigma is the population standard deviation (divides by n)", () => {
    // r = +0.1, −0.1: mean 0, population sd 0.1 (the sample sd would be 0.1414…)
    const m = measureReturns(points([100, 110, 99]), F);
    expect(m.sigma).to.be.closeTo(0.1, 1e-12);
  });

  it("a lopsided series: r = +0.1, +0.1, −0.1 gives mean 1/30 and sigma √(2/225), not the symmetric case's", () => {
    const m = measureReturns(points([100, 110, 121, 108.9]), F);
    // R = 1.1 × 1.1 × 0.9 − 1 = 0.089; deviations 1/15, 1/15, −2/15: sigma² = (1 + 1 + 4) / 225 / 3
    expect(m.return).to.be.closeTo(0.089, 1e-12);
    expect(m.sigma).to.be.closeTo(Math.sqrt(2 / 225), 1e-12);
    expect(m.sigma).to.be.closeTo(0.0942809041582, 1e-12);
    // The bits the manifest seals: Σ (r − mean)², two passes; Σ (r + mean)(r − mean), equal on paper, ends in …636.
    expect(m.sigma).to.equal(0.09428090415820638);
    expect(m.max_drawdown).to.be.closeTo(0.1, 1e-12);
  });

  it("maxDD is the deepest fall from a running peak of the return index, as a fraction of the peak", () => {
    // index 1 → 1.2 → 0.9 → 1.3 → 1.04: falls 0.25 and 0.2 of their peaks
    const m = measureReturns(points([100, 120, 90, 130, 104]), F);
    expect(m.max_drawdown).to.be.closeTo(0.25, 1e-12);
  });

  it("exposure is the mean invested fraction, at least 0.02", () => {
    expect(measureReturns(points([1, 1, 1], [], 0.6), F).exposure).to.equal(0.6);
    expect(measureReturns(points([1, 1, 1], [], 0), F).exposure).to.equal(0.02);
  });

  it("one snapshot or none: nothing moved, sigma 0 (not 0/0), exposure from what there is", () => {
    expect(measureReturns(points([100], [], 0.4), F)).to.deep.equal({
      return: 0,
      sigma: 0,
      max_drawdown: 0,
      exposure: 0.4,
    });
    expect(measureReturns(points([]), F)).to.deep.equal({
      return: 0,
      sigma: 0,
      max_drawdown: 0,
      exposure: 0.02,
    });
  });

  it("Brier = mean (confidence − hit)² over resolved calls, needing 5", () => {
    const calls = [
      { confidence: 0.8, hit: true },
      { confidence: 0.8, hit: true },
      { confidence: 0.6, hit: false },
      { confidence: 0.5, hit: true },
      { confidence: 1, hit: true },
    ];
    // (0.04 + 0.04 + 0.36 + 0.25 + 0) / 5 = 0.138
    expect(measureCalibration(calls, F).brier).to.be.closeTo(0.138, 1e-12);
    expect(measureCalibration(calls.slice(0, 4), F)).to.deep.equal({ calibration_calls: 4, brier: null });
  });

  it("days competing = (as-of − first snapshot) / 86,400 s, fractional", () => {
    expect(daysCompeting(0, 36 * 3_600_000, F)).to.equal(1.5);
    const first = Date.parse("2026-11-01T00:00:00Z");
    expect(daysCompeting(first, Date.parse("2026-11-02T12:00:00Z"), F)).to.equal(1.5);
    expect(daysCompeting(first, first - 3_600_000, F)).to.equal(0);
  });
});
