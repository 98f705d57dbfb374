import { expect } from "chai";
import fc from "fast-check";
import { components } from "./arbitraries.test-util";
import { RISK_COMPONENTS, RISK_SCORE_V1 } from "./constants";
import { combineReadings } from "./total";
import type { RiskComponents } from "./types";

const all = (reading: number | null): RiskComponents => ({
  worst_fall: reading,
  shared_exposure: reading,
  liquidation: reading,
  exit: reading,
  largest_depositor: reading,
  stopped: reading,
});

describe("total", () => {
  it("is Σ weight × reading / Σ weight, on 0–100, higher worse", () => {
    expect(combineReadings(all(0)).score).to.equal(0);
    expect(combineReadings(all(1)).score).to.equal(100);
    const mixed = { ...all(0), worst_fall: 1, stopped: 0.5 };
    expect(combineReadings(mixed)).to.deep.equal({ score: 29, measurable_share: 1, reason: null });
  });

  it('"A component we cannot measure does not vote — it is neither counted as safe nor as dangerous"', () => {
    const measured = { ...all(0.4), exit: null };
    const total = combineReadings(measured);
    expect(total.score).to.equal(40);
    expect(total.measurable_share).to.equal(0.825);
    // Read as safe (0) or as dangerous (1), the same vault would score differently.
    expect(combineReadings({ ...measured, exit: 0 }).score).to.not.equal(total.score);
    expect(combineReadings({ ...measured, exit: 1 }).score).to.not.equal(total.score);
  });

  it('"Below 50% measurable no score is published at all", with the measurable share shown', () => {
    // shared exposure + could you get out + largest depositor = 49.5 %
    const thin = { ...all(null), shared_exposure: 0.2, exit: 0.3, largest_depositor: 0 };
    expect(combineReadings(thin)).to.deep.equal({
      score: null,
      measurable_share: 0.495,
      reason: "insufficient_measurable",
    });
    expect(combineReadings(all(null))).to.deep.equal({
      score: null,
      measurable_share: 0,
      reason: "insufficient_measurable",
    });
  });

  it("publishes a score from 50 % measurable: worst fall + exit + stopped = 50.5 %", () => {
    const enough = { ...all(null), worst_fall: 0, exit: 1, stopped: 0 };
    const total = combineReadings(enough);
    expect(total.measurable_share).to.equal(0.505);
    expect(total.score).to.equal(Math.round((1750 / 5050) * 1000) / 10);
  });

  it("null is not zero: an unknown component and a component reading 0 give different totals", () => {
    const withZero = combineReadings({ ...all(1), liquidation: 0 });
    const withNull = combineReadings({ ...all(1), liquidation: null });
    expect(withNull.score).to.equal(100);
    expect(withZero.score).to.be.below(100);
  });

  it("score is in [0, 100] and measurable share in [0, 1]", () => {
    fc.assert(
      fc.property(components, (c) => {
        const { score, measurable_share } = combineReadings(c);
        expect(measurable_share).to.be.within(0, 1);
        if (score !== null) expect(score).to.be.within(0, 100);
      }),
    );
  });

  it("renormalisation matches a direct computation over the measurable components", () => {
    const percent = {
      worst_fall: 25,
      shared_exposure: 20,
      liquidation: 17.5,
      exit: 17.5,
      largest_depositor: 12,
      stopped: 8,
    };
    fc.assert(
      fc.property(components, (c) => {
        const measured = RISK_COMPONENTS.filter((name) => c[name] !== null);
        const weight = measured.reduce((sum, name) => sum + percent[name], 0);
        const direct = measured.reduce((sum, name) => sum + percent[name] * c[name]!, 0) / weight;
        const total = combineReadings(c);
        expect(total.measurable_share).to.be.closeTo(weight / 100, 1e-12);
        if (weight / 100 < RISK_SCORE_V1.minimumMeasurableShare) {
          expect(total.score).to.equal(null);
          expect(total.reason).to.equal("insufficient_measurable");
        } else {
          expect(total.score).to.be.closeTo(100 * direct, 0.05 + 1e-9);
          expect(total.reason).to.equal(null);
        }
      }),
    );
  });
});
