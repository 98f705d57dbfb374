import { expect } from "chai";
import { fakeSeal, makeSeason } from "./fixture";
import { AUGUR_SCORE_V1 as F } from "./formula";
import { deriveOutputs } from "./manifest";
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

  it("checks every output by name, in order, and is ok only when all of them are", () => {
    const honest = recomputeManifest(manifestOf());
    expect(honest.checks.map((c) => c.field)).to.deep.equal([
      "formula",
      "measured (present exactly when eligible)",
      "measured.match",
      "outputs.terms.performance",
      "outputs.terms.risk",
      "outputs.terms.consistency",
      "outputs.terms.calibration",
      "outputs.terms.longevity",
      "outputs.terms.creator",
      "outputs.weights_used",
      "outputs.weighted",
      "outputs.multiplier",
      "outputs.score",
      "outputs.reason",
    ]);
    expect(honest.checks.every((c) => c.ok)).to.equal(true);
    const edited = manifestOf();
    edited.outputs.reason = "too_few_snapshots";
    const result = recomputeManifest(edited);
    expect(result.ok).to.equal(false);
    expect(result.checks.filter((c) => !c.ok).map((c) => [c.field, c.manifest, c.recomputed])).to.deep.equal([
      ["outputs.reason", "too_few_snapshots", null],
    ]);
  });

  it("recomputes an ineligible manifest (nothing measured) and catches measured values stated for one", () => {
    const ineligible = recomputeManifest(manifestOf("sib"));
    expect(ineligible.ok).to.equal(true);
    expect(ineligible.checks.map((c) => c.field)).not.to.include("measured.match");

    const presence = (m: ReturnType<typeof manifestOf>) =>
      recomputeManifest(m).checks.find((c) => c.field === "measured (present exactly when eligible)")!;
    const fewSnapshots = manifestOf();
    fewSnapshots.inputs.snapshot_count = 2;
    expect(presence(fewSnapshots)).to.deep.include({ ok: false, manifest: true, recomputed: false });
    const invalid = manifestOf();
    invalid.inputs.invalid_input = {
      seal: null,
      path: "trades[0].price",
      problem: "must be a positive decimal number",
    };
    expect(presence(invalid)).to.deep.include({ ok: false, manifest: true, recomputed: false });
    const stated = manifestOf("sib");
    stated.measured = manifestOf().measured;
    expect(presence(stated)).to.deep.include({ ok: false, manifest: true, recomputed: false });
  });

  it("a missing output or one canonical JSON cannot write fails its check instead of throwing", () => {
    const noTerms = manifestOf();
    delete noTerms.outputs.terms;
    const failed = recomputeManifest(noTerms).checks.filter((c) => !c.ok);
    expect(failed.map((c) => c.field)).to.deep.equal([
      "outputs.terms.performance",
      "outputs.terms.risk",
      "outputs.terms.consistency",
      "outputs.terms.calibration", // null recomputed: an absent term is not a null one
      "outputs.terms.longevity",
      "outputs.terms.creator",
    ]);
    const unwritable = manifestOf();
    unwritable.outputs.weighted = 10n;
    expect(recomputeManifest(unwritable).checks.find((c) => c.field === "outputs.weighted")!.ok).to.equal(
      false,
    );
  });

  it("refuses what is not a score manifest, naming the part", () => {
    const refuses = (m: unknown, message: string, path: string) => {
      expect(() => recomputeManifest(m))
        .to.throw(MalformedManifestError, message)
        .that.deep.includes({ name: "MalformedManifestError", code: "MALFORMED_MANIFEST", details: { path } })
        .and.has.property("message", message);
    };
    for (const value of [null, "manifest", 7, []]) refuses(value, "manifest $ is not an object", "$");
    for (const key of ["formula", "subject", "inputs", "outputs"]) {
      const missing = manifestOf();
      delete missing[key];
      refuses(missing, `manifest ${key} is missing or not an object`, key);
      const list = manifestOf();
      list[key] = [list[key]];
      refuses(list, `manifest ${key} is missing or not an object`, key);
    }
    const noMeasured = manifestOf();
    delete noMeasured.measured;
    refuses(noMeasured, "manifest measured is missing", "measured");
    const broken = manifestOf();
    broken.measured.creator_inputs = null;
    expect(() => recomputeManifest(broken))
      .to.throw(MalformedManifestError)
      .with.property("message")
      .that.matches(/^manifest measured cannot be recomputed \(.+\)$/);
  });

  it("refuses a formula version that is not a known string, with the version in the error", () => {
    for (const version of [7, ["augur-score/v1"], null]) {
      const m = manifestOf();
      m.formula.version = version;
      expect(() => recomputeManifest(m))
        .to.throw(UnknownFormulaError, `unknown formula version ${JSON.stringify(version)}`)
        .that.deep.includes({ name: "UnknownFormulaError", code: "UNKNOWN_FORMULA", details: { version } });
    }
  });
});

describe("deriveOutputs", () => {
  const unscored = (reason: string) => ({
    terms: {
      performance: null,
      risk: null,
      consistency: null,
      calibration: null,
      longevity: null,
      creator: null,
    },
    weights_used: {},
    weighted: null,
    multiplier: null,
    score: null,
    reason,
  });

  it("scores nothing for a refused record, for too few snapshots and for missing measured values", () => {
    const m = manifestOf();
    expect(deriveOutputs(m.subject, m.inputs, m.measured, F)).to.deep.equal(m.outputs);
    expect(m.outputs.score).to.be.a("number");
    const invalid = { ...m.inputs, invalid_input: { seal: null, path: "trades[0].price", problem: "x" } };
    expect(deriveOutputs(m.subject, invalid, m.measured, F)).to.deep.equal(unscored("invalid_input"));
    const few = { ...m.inputs, snapshot_count: 2 };
    expect(deriveOutputs(m.subject, few, m.measured, F)).to.deep.equal(unscored("too_few_snapshots"));
    const fewOwn = { ...m.inputs, own_decision_count: 4 };
    expect(deriveOutputs(m.subject, fewOwn, m.measured, F)).to.deep.equal(unscored("too_few_own_decisions"));
    expect(deriveOutputs(m.subject, m.inputs, null, F)).to.deep.equal(unscored("too_few_snapshots"));
  });
});
