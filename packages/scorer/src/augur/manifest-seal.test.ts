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

  it("a deep-frozen formula's text is built once, then read from the cache", () => {
    const deepFreeze = <T>(value: T): T => {
      if (typeof value === "object" && value !== null) {
        for (const item of Object.values(value)) deepFreeze(item);
        Object.freeze(value);
      }
      return value;
    };
    const frozen = deepFreeze(structuredClone(AUGUR_SCORE_V1));
    let reads = 0;
    const formula = new Proxy(frozen, {
      get: (target, key, receiver) => {
        reads += 1;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const [row] = scoreSeason(makeSeason([{ id: "me", navs: [100, 101, 102] }])).rows;
    const manifest = { ...row!.manifest, formula };
    expect(sealManifest(manifest)).to.equal(row!.seal);
    expect(reads).to.be.greaterThan(0);
    const afterFirst = reads;
    expect(sealManifest(manifest)).to.equal(row!.seal);
    expect(reads).to.equal(afterFirst);
  });

  it("a formula frozen only at the top is not cached: a change below it is sealed", () => {
    const formula = Object.freeze(structuredClone(AUGUR_SCORE_V1)) as AugurFormula;
    const [row] = scoreSeason(makeSeason([{ id: "me", navs: [100, 101, 102] }])).rows;
    const manifest = { ...row!.manifest, formula };
    expect(sealManifest(manifest)).to.equal(row!.seal);
    (formula.constants as { min_exposure: number }).min_exposure = 0.5;
    expect(sealManifest(manifest)).to.equal(seal(manifest));
    expect(sealManifest(manifest)).not.to.equal(row!.seal);
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
