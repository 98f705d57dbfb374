import { expect } from "chai";
import { blankVault } from "./arbitraries.test-util";
import { RISK_COMPONENTS } from "./constants";
import { scoreVaults } from "./score-vaults";
import { isRiskSortKey, RISK_SORT_KEYS, sortRiskRows } from "./sort";
import type { RiskRow } from "./types";

describe("sorting risk rows", () => {
  const active = { days_observed: 10, days_traded: 10 };
  const { rows } = scoreVaults([
    blankVault("b", { ...active, free_share: 0.1, liquidation_cushion: 0, largest_depositor_share: 0.5 }),
    blankVault("a", { ...active, free_share: 0.2, liquidation_cushion: 0.2, largest_depositor_share: 1 }),
    blankVault("c", { ...active, free_share: null, liquidation_cushion: 0.25, largest_depositor_share: 1 }),
    blankVault("d", { ...active, free_share: 0.1, liquidation_cushion: 1, largest_depositor_share: 0.5 }),
  ]);

  it("puts the worst first and unmeasured rows last (null is not zero)", () => {
    expect(sortRiskRows(rows, "exit").map((r) => r.vault_id)).to.deep.equal(["b", "d", "a", "c"]);
  });

  it("breaks ties by vault id", () => {
    expect(sortRiskRows(rows, "largest_depositor").map((r) => r.vault_id)).to.deep.equal([
      "a",
      "c",
      "b",
      "d",
    ]);
  });

  it("sorts by the total score too, leaving the input untouched", () => {
    expect(sortRiskRows(rows, "score").map((r) => r.vault_id)).to.deep.equal(["b", "a", "d", "c"]);
    expect(rows.map((r) => r.vault_id)).to.deep.equal(["b", "a", "c", "d"]);
  });

  it("knows its keys", () => {
    expect(isRiskSortKey("worst_fall")).to.equal(true);
    expect(isRiskSortKey("score")).to.equal(true);
    expect(RISK_SORT_KEYS).to.deep.equal(["score", ...RISK_COMPONENTS]);
    expect(isRiskSortKey("return")).to.equal(false);
  });

  it("orders by value, null after a zero reading, then by id, whatever the input order", () => {
    const row = (vault_id: string, score: number | null) =>
      ({ vault_id, score, components: {} }) as unknown as RiskRow;
    const input = [row("e", 0), row("d", null), row("c", 0.5), row("b", 0.5), row("a", null), row("f", 0)];
    const expected = ["b", "c", "e", "f", "a", "d"];
    expect(sortRiskRows(input, "score").map((r) => r.vault_id)).to.deep.equal(expected);
    expect(sortRiskRows([...input].reverse(), "score").map((r) => r.vault_id)).to.deep.equal(expected);
  });
});
