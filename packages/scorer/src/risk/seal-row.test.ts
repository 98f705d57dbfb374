import { expect } from "chai";
import { isHex32 } from "../hex";
import { seal } from "../seal";
import { blankVault } from "./arbitraries.test-util";
import { scoreVaults } from "./score-vaults";
import { riskRowRecord, sealRiskRow } from "./seal-row";

describe("sealing a risk row", () => {
  const [row] = scoreVaults([
    blankVault("v", { free_share: 0.1, liquidation_cushion: 0.1, days_observed: 10, days_traded: 5 }),
  ]).rows;

  it("seals the row together with the methodology that produced it", () => {
    expect(riskRowRecord(row!).methodology).to.equal("risk-score/v1");
    expect(sealRiskRow(row!)).to.equal(seal({ ...row!, methodology: "risk-score/v1" }));
    expect(isHex32(sealRiskRow(row!))).to.equal(true);
  });

  it("changes when any reading changes", () => {
    const edited = { ...row!, components: { ...row!.components, exit: 0 } };
    expect(sealRiskRow(edited)).to.not.equal(sealRiskRow(row!));
  });
});
