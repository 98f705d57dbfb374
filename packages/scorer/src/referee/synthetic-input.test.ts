import { expect } from "chai";
import { seededRandom, syntheticSeason } from "./synthetic-input";

describe("synthetic referee seasons", () => {
  it("seededRandom is one fixed stream per seed (the demo's market replays it), in [0, 1)", () => {
    const demo = seededRandom(5_113);
    expect([demo(), demo(), demo()]).to.deep.equal([
      0.5709530739113688, 0.5929294950328767, 0.08402442652732134,
    ]);
    // The seed is taken as an unsigned 32-bit integer: −1 is 2³² − 1.
    expect(seededRandom(-1)()).to.equal(0.8964226141106337);
    expect(seededRandom(2 ** 32 - 1)()).to.equal(0.8964226141106337);
    const stream = seededRandom(7);
    for (let i = 0; i < 1_000; i++) expect(stream()).to.be.within(0, 0.9999999999);
  });

  it("a small season: closes per pair and hour, calls as asked, all from the seed", () => {
    const season = syntheticSeason({
      seed: 7,
      agents: 2,
      predictionsPerAgent: 2,
      pairs: 2,
      hours: 3,
      horizons: [4],
    });
    expect(season).to.deep.equal({
      epoch: 1,
      closes: {
        "STK0/USDG": [
          { at: "2026-11-01T00:00:00Z", close: 51.8824 },
          { at: "2026-11-01T01:00:00Z", close: 52.377262 },
          { at: "2026-11-01T02:00:00Z", close: 52.585754 },
        ],
        "STK1/USDG": [
          { at: "2026-11-01T00:00:00Z", close: 153.997514 },
          { at: "2026-11-01T01:00:00Z", close: 153.893513 },
          { at: "2026-11-01T02:00:00Z", close: 153.093036 },
        ],
      },
      predictions: [
        {
          agent: "agent-0",
          slot: "2026-11-01T02:00:00Z",
          pair: "STK0/USDG",
          horizon_h: 4,
          direction: "down",
          size: 76,
        },
        {
          agent: "agent-0",
          slot: "2026-11-01T00:00:00Z",
          pair: "STK0/USDG",
          horizon_h: 4,
          direction: "down",
          size: 53,
        },
        {
          agent: "agent-1",
          slot: "2026-11-01T02:00:00Z",
          pair: "STK0/USDG",
          horizon_h: 4,
          direction: "up",
          size: 19,
        },
        {
          agent: "agent-1",
          slot: "2026-11-01T00:00:00Z",
          pair: "STK0/USDG",
          horizon_h: 4,
          direction: "up",
          size: 76,
        },
      ],
    });
    expect(syntheticSeason({ seed: 7, agents: 1, predictionsPerAgent: 1, epoch: "e2" }).epoch).to.equal("e2");
  });

  it("defaults: 8 pairs, 720 hours from 2026-11-01, horizons 1, 4 and 24 hours", () => {
    const season = syntheticSeason({ seed: 3, agents: 4, predictionsPerAgent: 50 });
    expect(Object.keys(season.closes)).to.deep.equal(Array.from({ length: 8 }, (_, i) => `STK${i}/USDG`));
    for (const closes of Object.values(season.closes)) {
      expect(closes).to.have.length(720);
      expect(closes[0]!.at).to.equal("2026-11-01T00:00:00Z");
      expect(closes[719]!.at).to.equal("2026-11-30T23:00:00Z");
    }
    expect(season.predictions).to.have.length(200);
    expect(new Set(season.predictions.map((p) => p.horizon_h))).to.deep.equal(new Set([1, 4, 24]));
    // Calls spread over every pair (the small season above happens to draw STK0 four times).
    expect(new Set(season.predictions.map((p) => p.pair)).size).to.equal(8);
    for (const p of season.predictions) expect(p.size).to.be.within(0, 100);
  });
});
