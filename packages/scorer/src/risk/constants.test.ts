import { expect } from "chai";
import { RISK_COMPONENTS, RISK_SCORE_V1, riskMethodology, TOTAL_WEIGHT_BPS } from "./constants";

describe("risk-score/v1 constants", () => {
  it('"The weights are a judgement, not a finding … published below": the seed\'s 25 / 20 / 17.5 / 17.5 / 12 / 8 %, summing to the whole', () => {
    expect(RISK_SCORE_V1.weightsBps).to.deep.equal({
      worst_fall: 2500,
      shared_exposure: 2000,
      liquidation: 1750,
      exit: 1750,
      largest_depositor: 1200,
      stopped: 800,
    });
    const sum = RISK_COMPONENTS.reduce((total, name) => total + RISK_SCORE_V1.weightsBps[name], 0);
    expect(sum).to.equal(TOTAL_WEIGHT_BPS);
  });

  it("carries the seed's scales and the 50 % minimum measurable share", () => {
    expect(RISK_SCORE_V1.version).to.equal("risk-score/v1");
    expect(RISK_SCORE_V1.worstFallFullReading).to.equal(0.5);
    expect(RISK_SCORE_V1.liquidationSafeCushion).to.equal(0.25);
    expect(RISK_SCORE_V1.exitSafeFreeShare).to.equal(0.25);
    expect([RISK_SCORE_V1.depositorFloorShare, RISK_SCORE_V1.depositorFullShare]).to.deep.equal([0.25, 1]);
    expect(RISK_SCORE_V1.minimumMeasurableShare).to.equal(0.5);
  });

  it("cannot be edited at run time", () => {
    expect(Object.isFrozen(RISK_SCORE_V1)).to.equal(true);
    expect(Object.isFrozen(RISK_SCORE_V1.weightsBps)).to.equal(true);
  });

  it("is found by the id a sealed row names; an id this build does not carry is not read as v1", () => {
    expect(riskMethodology("risk-score/v1")).to.equal(RISK_SCORE_V1);
    expect(riskMethodology("risk-score/v2")).to.equal(undefined);
  });
});
