import { expect } from "chai";
import Fastify from "fastify";
import { calibrationBins, scoreChart, scoreHistory } from "./agent-charts";
import { niceTicks } from "./charts";
import type { HistoryView } from "../api/routes/history";

const call = (confidenceBps: number, outcome: "hit" | "miss" | "void") =>
  ({ confidenceBps, outcome }) as HistoryView["calls"][number];

describe("agent page charts", () => {
  it("calibration: hit rate per 10-point bin of stated confidence, voids left out", () => {
    const bins = calibrationBins([
      call(5500, "hit"),
      call(5900, "miss"),
      call(7000, "hit"),
      call(7400, "hit"),
      call(7800, "miss"),
      call(7200, "void"),
      call(10_000, "hit"),
    ]);
    expect(bins).to.deep.equal([
      { from: 50, stated: 57, hitRate: 50, calls: 2 },
      { from: 70, stated: 74, hitRate: (100 * 2) / 3, calls: 3 },
      { from: 90, stated: 100, hitRate: 100, calls: 1 },
    ]);
  });

  it("score over time: read from the score-history route, drawn on 0–100 with ticks; absent route said so", async () => {
    const app = Fastify();
    app.get("/api/v1/agents/ada/scores", async () => ({
      rows: [
        { asOf: 7200, score: 61.6 },
        { asOf: 3600, score: null },
        { as_of: 10_800, score: 58 },
      ],
      next: null,
    }));
    await app.ready();
    const points = await scoreHistory(app, "ada", "s1");
    expect(points).to.deep.equal([
      { asOf: 3600, score: null },
      { asOf: 7200, score: 61.6 },
      { asOf: 10_800, score: 58 },
    ]);
    expect(await scoreHistory(app, "bob", "s1")).to.equal(null); // no route for bob: 404
    await app.close();
    const svg = scoreChart(points).text;
    expect(svg).to.contain('id="score-chart"').and.to.contain("over 2 scored hours");
    for (const tick of niceTicks(0, 100)) expect(svg).to.contain(`>${tick}</text>`);
    expect(svg.match(/class="grid"/g)).to.have.length(6);
    expect(scoreChart(null).text).to.contain("serves no score history");
  });

  it("ticks are round and cover the data", () => {
    expect(niceTicks(0, 100)).to.deep.equal([0, 20, 40, 60, 80, 100]);
    expect(niceTicks(0.97, 1.03)).to.deep.equal([0.96, 0.98, 1, 1.02, 1.04]);
    expect(niceTicks(120, 480)).to.deep.equal([100, 200, 300, 400, 500]);
    expect(niceTicks(5, 5)).to.deep.equal([0, 2, 4, 6, 8, 10]);
  });
});
