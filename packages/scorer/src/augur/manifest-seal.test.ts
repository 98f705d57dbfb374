import { expect } from "chai";
import fc from "fast-check";
import { canonicalJson, seal } from "../seal";
import { makeSeason } from "./fixture";
import { arbAgentSpec } from "./fixture-arb";
import { AUGUR_SCORE_V1, type AugurFormula } from "./formula";
import { manifestText, sealManifest } from "./manifest-seal";
import { scoreSeason } from "./season";

// Whole-season properties run FC_RUNS times like the rest (1,000; 10,000 in test:deep).
const seasonRuns = Number(process.env.FC_RUNS ?? 1000);

describe("manifest seal fast path", () => {
  it("property: every scored row's seal is the general RFC 8785 seal of its manifest", () => {
    fc.assert(
      fc.property(fc.tuple(arbAgentSpec("a"), arbAgentSpec("b")), (specs) => {
        for (const row of scoreSeason(makeSeason(specs)).rows) {
          expect(row.seal).to.equal(seal(row.manifest));
          expect(sealManifest(row.manifest)).to.equal(row.seal);
          expect(manifestText(row.manifest)).to.equal(canonicalJson(row.manifest));
        }
      }),
      { numRuns: Math.min(300, seasonRuns) },
    );
  });

  it("a formula that is not frozen is read afresh each time (no stale cached text)", () => {
    const formula = structuredClone(AUGUR_SCORE_V1) as {
      -readonly [K in keyof AugurFormula]: AugurFormula[K];
    };
    const [row] = scoreSeason(
      makeSeason([{ id: "me", navs: [100, 101, 102] }]),
      formula as AugurFormula,
    ).rows;
    const manifest = { ...row!.manifest, formula: formula as AugurFormula };
    expect(sealManifest(manifest)).to.equal(seal(manifest));
    (formula as { version: string }).version = "augur-score/v1-edited";
    expect(sealManifest(manifest)).to.equal(seal(manifest));
    expect(sealManifest(manifest)).not.to.equal(row!.seal);
  });
});
