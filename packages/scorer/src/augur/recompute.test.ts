import { expect } from "chai";
import { fakeSeal, makeSeason } from "./fixture";
import { MalformedManifestError, recomputeManifest, UnknownFormulaError } from "./recompute";
import { scoreSeason } from "./season";

const manifestOf = (id = "me") => {
  const input = makeSeason(
    [
      { id: "me", creator: "c", style: "momentum", navs: [100, 103, 101, 104], ownDecisions: 6 },
      { id: "sib", creator: "c", navs: [100] },
    ],
    {
      prior_scores: [
        {
          agent: "sib",
          season_id: "s0",
          performance: 64,
          seal: fakeSeal(1),
          sealed_at: "2026-10-01T00:00:00Z",
        },
      ],
    },
  );
  return JSON.parse(JSON.stringify(scoreSeason(input).rows.find((r) => r.agent_id === id)!.manifest));
};

describe("recomputeManifest", () => {
  it("reproduces every output of an honest manifest", () => {
    const result = recomputeManifest(manifestOf());
    expect(result.formula).to.equal("augur-score/v1");
    expect(result.ok).to.equal(true);
    expect(result.checks.map((c) => c.field)).to.include.members([
      "outputs.score",
      "outputs.terms.creator",
      "formula",
    ]);
  });

  it("catches an edited output, an edited measured value and an edited constant", () => {
    const edited = manifestOf();
    edited.outputs.score += 0.1;
    expect(
      recomputeManifest(edited)
        .checks.filter((c) => !c.ok)
        .map((c) => c.field),
    ).to.deep.equal(["outputs.score"]);

    const measured = manifestOf();
    measured.measured.creator_inputs[0].performance = 100; // the creator term no longer matches
    const failed = recomputeManifest(measured)
      .checks.filter((c) => !c.ok)
      .map((c) => c.field);
    expect(failed).to.include.members(["outputs.terms.creator", "outputs.weighted"]);

    const constant = manifestOf();
    constant.formula.weights.performance = 0.5;
    expect(recomputeManifest(constant).checks.find((c) => c.field === "formula")!.ok).to.equal(false);
  });

  it("catches a stated match the DNA features do not give", () => {
    const m = manifestOf();
    m.measured.match = m.measured.match === 1 ? 0.5 : 1;
    expect(recomputeManifest(m).checks.find((c) => c.field === "measured.match")!.ok).to.equal(false);
  });

  it("refuses an unknown formula version and a manifest that is not one", () => {
    const m = manifestOf();
    m.formula.version = "augur-score/v9";
    expect(() => recomputeManifest(m)).to.throw(
      UnknownFormulaError,
      'unknown formula version "augur-score/v9"',
    );
    expect(() => recomputeManifest([])).to.throw(MalformedManifestError);
  });
});
