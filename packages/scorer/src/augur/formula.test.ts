import { expect } from "chai";
import { AUGUR_SCORE_V1, DNA_FEATURE_NAMES, FORMULAS, isStyle, STYLES, TERM_NAMES } from "./formula";

describe("augur-score/v1 formula object", () => {
  it("holds the seed's weights: 0.35, 0.25, 0.15, 0.10, 0.10, 0.05 (summing to 1)", () => {
    expect(AUGUR_SCORE_V1.weights).to.deep.equal({
      performance: 0.35,
      risk: 0.25,
      consistency: 0.15,
      calibration: 0.1,
      longevity: 0.1,
      creator: 0.05,
    });
    const total = TERM_NAMES.reduce((sum, name) => sum + AUGUR_SCORE_V1.weights[name], 0);
    expect(total).to.be.closeTo(1, 1e-12);
  });

  it("holds the seed's constants: scales 0.20, 0.05, 0.20, 0.04, 0.25, 21 days, exposure ≥ 0.02, 5 calls, 5 decisions, 3 snapshots, 0.8 + 0.2 × match", () => {
    const c = AUGUR_SCORE_V1.constants;
    expect([
      c.performance_return_scale,
      c.risk_sigma_scale,
      c.risk_drawdown_scale,
      c.consistency_sigma_scale,
      c.calibration_brier_scale,
      c.longevity_full_days,
      c.min_exposure,
      c.min_resolved_calls,
      c.min_own_decisions,
      c.min_snapshots,
      c.multiplier_base,
      c.multiplier_match_weight,
      c.overall_decimals,
    ]).to.deep.equal([0.2, 0.05, 0.2, 0.04, 0.25, 21, 0.02, 5, 5, 3, 0.8, 0.2, 1]);
    expect(AUGUR_SCORE_V1.version).to.equal("augur-score/v1");
  });

  it("versions the DNA vector inside the formula and gives every declared style a region list", () => {
    expect(AUGUR_SCORE_V1.dna.version).to.equal("augur-dna/v1");
    expect(Object.keys(AUGUR_SCORE_V1.dna.styles).sort()).to.deep.equal([...STYLES].sort());
    expect(AUGUR_SCORE_V1.dna.styles.discretionary).to.have.length(0);
    for (const style of STYLES)
      for (const region of AUGUR_SCORE_V1.dna.styles[style]) {
        expect(DNA_FEATURE_NAMES).to.include(region.feature);
        expect(region.width).to.be.greaterThan(0);
      }
  });

  it("is frozen, so no caller can alter the arithmetic a manifest names", () => {
    expect(Object.isFrozen(AUGUR_SCORE_V1.constants)).to.equal(true);
    expect(Object.isFrozen(AUGUR_SCORE_V1.dna.styles.momentum[0])).to.equal(true);
  });

  it("recomputes exactly one formula version, by its name", () => {
    expect(Object.keys(FORMULAS)).to.deep.equal(["augur-score/v1"]);
    expect(FORMULAS["augur-score/v1"]).to.equal(AUGUR_SCORE_V1);
  });

  it("isStyle accepts exactly the five style names", () => {
    for (const style of STYLES) expect(isStyle(style), style).to.equal(true);
    for (const value of ["yolo", "", "Momentum", 7, null, ["momentum"]])
      expect(isStyle(value)).to.equal(false);
  });
});
