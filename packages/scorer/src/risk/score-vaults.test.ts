import { expect } from "chai";
import fc from "fast-check";
import { blankVault, indexOf, vaults } from "./arbitraries.test-util";
import { RISK_COMPONENTS } from "./constants";
import { scoreVaults } from "./score-vaults";
import type { VaultInput } from "./types";
import { worstFall } from "./worst-fall";

describe("scoring vaults", () => {
  it("gives one row per vault, in input order, each with every component and the measurable share", () => {
    const report = scoreVaults([
      blankVault("a", {
        tvl_usd: 10,
        holder_index: indexOf([1, 1.2, 0.9]),
        holdings: [{ instrument: "TSLA", side: "long", usd: 5 }],
        liquidation_cushion: 1,
        free_share: 0.05,
        largest_depositor_share: 0.25,
        days_observed: 10,
        days_traded: 9,
      }),
      blankVault("b", { tvl_usd: 30, holdings: [{ instrument: "TSLA", side: "long", usd: 5 }] }),
    ]);
    const [a] = report.rows;
    expect(a).to.deep.include({ vault_id: "a", score: 47.3, measurable_share: 1, reason: null });
    // (25 × 0.5 + 20 × 1 + 17.5 × 0 + 17.5 × 0.8 + 12 × 0 + 8 × 0.1) % = 47.3
    const expected = {
      worst_fall: 0.5,
      shared_exposure: 1,
      liquidation: 0,
      exit: 0.8,
      largest_depositor: 0,
      stopped: 0.1,
    };
    for (const name of RISK_COMPONENTS) expect(a!.components[name]).to.be.closeTo(expected[name], 1e-12);
    expect(report.rows[1]).to.deep.include({ vault_id: "b", score: null, measurable_share: 0.2 });
    expect(report.coverage).to.deep.equal({ capital_share: 0.25, vault_share: 0.5, unscored: 1 });
  });

  it('"Return is not an input — not as a component, not as a tie-break, not inverted": a vault that doubled and one that stayed flat score the same', () => {
    const common = { free_share: 0.1, liquidation_cushion: 0.2, days_observed: 30, days_traded: 30 };
    const doubled = blankVault("up", { ...common, holder_index: indexOf([1, 0.8, 1.2, 2]) });
    const flat = blankVault("flat", { ...common, holder_index: indexOf([1, 0.8, 0.8, 0.8]) });
    const [a, b] = scoreVaults([doubled, flat]).rows;
    expect(a!.score).to.equal(b!.score);
    expect(a!.components).to.deep.equal(b!.components);
  });

  it("return never changes the score (property: identical vaults but for returns after the worst fall)", () => {
    const gains = fc.array(fc.double({ min: 0, max: 3, noNaN: true }), { minLength: 1, maxLength: 30 });
    fc.assert(
      fc.property(vaults, gains, gains, (all, gainsA, gainsB) => {
        const base = all[0]!;
        const history = base.holder_index ?? indexOf([1, 0.7]);
        // The trough of the worst fall; after it, the two vaults earn different non-negative returns.
        const values = history.map((p) => p.index);
        const trough = values.findIndex(
          (_, i) => worstFall(indexOf(values.slice(0, i + 1))) === worstFall(history),
        );
        const upTo = values.slice(0, trough + 1);
        const extend = (gainsAfter: number[]): VaultInput => {
          const path = [...upTo];
          for (const g of gainsAfter) path.push(path[path.length - 1]! * (1 + g));
          return { ...base, holder_index: indexOf(path) };
        };
        const rowsA = scoreVaults([extend(gainsA), ...all.slice(1)]).rows;
        const rowsB = scoreVaults([extend(gainsB), ...all.slice(1)]).rows;
        expect(rowsA[0]).to.deep.equal(rowsB[0]);
      }),
    );
  });

  it("every reading is in [0, 1], score in [0, 100], and a score exists exactly from 50 % measurable", () => {
    fc.assert(
      fc.property(vaults, (all) => {
        const { rows, coverage } = scoreVaults(all);
        for (const row of rows) {
          for (const name of RISK_COMPONENTS) {
            const reading = row.components[name];
            if (reading !== null) expect(reading).to.be.within(0, 1);
          }
          if (row.score === null) expect(row.measurable_share).to.be.below(0.5);
          else expect(row.score).to.be.within(0, 100);
          expect(row.score === null).to.equal(row.reason !== null);
        }
        expect(coverage.unscored).to.equal(rows.filter((r) => r.score === null).length);
      }),
    );
  });

  it("is deterministic: the same input gives the same report", () => {
    fc.assert(
      fc.property(vaults, (all) => {
        expect(scoreVaults(all)).to.deep.equal(scoreVaults(structuredClone(all)));
      }),
    );
  });
});
