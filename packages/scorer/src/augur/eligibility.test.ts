import { expect } from "chai";
import { ineligibleReason } from "./eligibility";
import { AUGUR_SCORE_V1 as F } from "./formula";

describe("augur eligibility", () => {
  it("needs 5 own decisions and 3 snapshots; otherwise names the reason", () => {
    expect(ineligibleReason(3, 5, F)).to.equal(null);
    expect(ineligibleReason(2, 5, F)).to.equal("too_few_snapshots");
    expect(ineligibleReason(3, 4, F)).to.equal("too_few_own_decisions");
    expect(ineligibleReason(0, 0, F)).to.equal("too_few_snapshots");
  });
});
