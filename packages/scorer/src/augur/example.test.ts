import { expect } from "chai";
import { WORKED_EXAMPLE } from "./example";
import { scoreSeasonJson, type ScoreRow } from "./season";

// Every figure docs/augur-score-v1.md quotes for its worked example.
describe("the worked example of docs/augur-score-v1.md", () => {
  // Each test scores the example itself (it is small): code run while mocha loads the file or in a
  // before hook is not credited to the tests that check it, so mutation testing would miss them.
  const ada = (): ScoreRow => scoreSeasonJson(WORKED_EXAMPLE).rows.find((r) => r.agent_id === "ada")!;
  const to = (x: number | null, digits: number) => Number(x!.toFixed(digits));

  it("measures R 0.040094, sigma 0.0169967, maxDD 0.01, exposure 0.6, 10 days, Brier 0.138 over 5 calls", () => {
    const row = ada();
    const m = row.manifest.measured!;
    expect([to(m.return, 6), to(m.sigma, 7), to(m.max_drawdown, 6), to(m.exposure, 6), m.days]).to.deep.equal(
      [0.040094, 0.0169967, 0.01, 0.6, 10],
    );
    expect([m.calibration_calls, to(m.brier, 6)]).to.deep.equal([5, 0.138]);
    expect(row.manifest.inputs).to.include({
      snapshot_count: 4,
      decision_count: 9,
      own_decision_count: 8,
      trade_count: 5,
    });
  });

  it("measures DNA 0.5 trades/day, 0.8 decisions/day, 20.67 h holds, bias −0.0214, alignment 0.3333 → trend-following match 0.6435", () => {
    const m = ada().manifest.measured!;
    expect([
      m.dna.trades_per_day,
      m.dna.decisions_per_day,
      to(m.dna.holding_hours, 2),
      to(m.dna.directional_bias, 4),
      to(m.dna.prior_move_alignment, 4),
      to(m.match, 4),
    ]).to.deep.equal([0.5, 0.8, 20.67, -0.0214, 0.3333, 0.6435]);
  });

  it("gives terms 70.05, 67.51, 29.18, 44.80, 47.62, 64; weighted 58.21; multiplier 0.9287; overall 54.1", () => {
    const row = ada();
    const t = row.terms;
    expect(
      [t.performance, t.risk, t.consistency, t.calibration, t.longevity, t.creator].map((x) => to(x, 2)),
    ).to.deep.equal([70.05, 67.51, 29.18, 44.8, 47.62, 64]);
    expect(to(row.manifest.outputs.weighted, 2)).to.equal(58.21);
    expect(to(row.multiplier, 4)).to.equal(0.9287);
    expect(row.score).to.equal(54.1);
  });

  it("declared momentum instead, the same agent matches 1 and scores 58.2", () => {
    const momentum = {
      ...WORKED_EXAMPLE,
      agents: WORKED_EXAMPLE.agents.map((a) => (a.id === "ada" ? { ...a, style: "momentum" as const } : a)),
    };
    const other = scoreSeasonJson(momentum).rows.find((r) => r.agent_id === "ada")!;
    expect([other.match, other.score]).to.deep.equal([1, 58.2]);
  });

  it("seals to the value the document prints, on any machine", () => {
    const row = ada();
    expect(row.manifest.inputs.snapshot_root).to.equal(
      "0xb6f545db9828a2f1bf207ad17f81022e921479eb19f571d428cf1c6dd05e6de1",
    );
    expect(row.seal).to.equal("0xe5efe21e8f1b257c18aa71227c1ebc77b04aed8d71b555ae9dfa756f0081fb36");
  });
});
