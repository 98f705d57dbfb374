import { expect } from "chai";
import fc from "fast-check";
import { measureDna, regionFit, strategyMatch, type DnaFeatures, type TradePoint } from "./dna";
import { AUGUR_SCORE_V1 as F, STYLES } from "./formula";

const H = 3_600_000;
const trade = (
  hour: number,
  asset: string,
  side: "buy" | "sell",
  price: number,
  quantity = 1,
): TradePoint => ({
  atMs: hour * H,
  asset,
  buy: side === "buy",
  quantity,
  price,
});

// The worked example of docs/augur-score-v1.md.
const example: TradePoint[] = [
  trade(0, "TSLA", "buy", 100, 2),
  trade(10, "TSLA", "buy", 104, 1),
  trade(30, "TSLA", "sell", 110, 3),
  trade(40, "AAPL", "buy", 200, 1),
  trade(52, "AAPL", "sell", 196, 1),
];

describe("augur DNA (augur-dna/v1)", () => {
  it("measures the worked example of the docs", () => {
    const dna = measureDna(8, example, 2);
    expect(dna.trades_per_day).to.equal(2.5);
    expect(dna.decisions_per_day).to.equal(4);
    // holds: 30 − 0, 30 − 10, 52 − 40 hours → mean 62 / 3
    expect(dna.holding_hours).to.be.closeTo(62 / 3, 1e-12);
    // buys 200 + 104 + 200 = 504, sells 330 + 196 = 526 → (504 − 526) / 1030
    expect(dna.directional_bias).to.be.closeTo(-22 / 1030, 1e-12);
    // TSLA buy after a rise (+1), TSLA sell after a rise (−1), AAPL sell after a fall (+1)
    expect(dna.prior_move_alignment).to.be.closeTo(1 / 3, 1e-12);
    // momentum: alignment 1/3 ≥ 0.2 fits, hold 20.7 h ≤ 72 fits, 2.5 trades/day ≥ 0.5 fits
    expect(strategyMatch(dna, "momentum", 8, F)).to.equal(1);
    // mean-reversion: alignment 1/3 is 0.5333 above −0.2 (width 0.4) → 0; hold fits → (0 + 1) / 2
    expect(strategyMatch(dna, "mean-reversion", 8, F)).to.equal(0.5);
    // trend-following: alignment fits; hold 20.67 h is 51.33 h short of 72 → 1 − 51.33/72
    expect(strategyMatch(dna, "trend-following", 8, F)).to.be.closeTo(
      (1 + (1 - (72 - 62 / 3) / 72)) / 2,
      1e-12,
    );
    // market-neutral: bias −0.021 fits, alignment 0.333 is 0.0333 above 0.3 → 1 − 0.0333/0.4
    expect(strategyMatch(dna, "market-neutral", 8, F)).to.be.closeTo(
      (1 + (1 - (1 / 3 - 0.3) / 0.4)) / 2,
      1e-12,
    );
  });

  it("measures a worked example whose alignment is not ± the share of buys (no sign can be hard-wired)", () => {
    const trades = [
      trade(0, "TSLA", "buy", 100),
      trade(1, "TSLA", "buy", 102), // after a rise: +1
      trade(2, "TSLA", "buy", 101), // after a fall: −1
      trade(3, "TSLA", "sell", 105), // after a rise: −1
      trade(4, "TSLA", "sell", 105), // no move: not counted
      trade(5, "AAPL", "buy", 50),
      trade(6, "AAPL", "buy", 55), // after a rise: +1
    ];
    const dna = measureDna(6, trades, 2);
    // (+1 − 1 − 1 + 1) / 4 = 0; a side read without the move would give +1/2 or −1/2.
    expect(dna.prior_move_alignment).to.equal(0);
    expect(dna.trades_per_day).to.equal(3.5);
    expect(dna.decisions_per_day).to.equal(3);
    // TSLA buys at 0, 1, 2 h close at the sell at 3 h: 3, 2, 1 h; the sells and AAPL never close.
    expect(dna.holding_hours).to.equal(2);
    // buys 100 + 102 + 101 + 50 + 55 = 408, sells 210 → 198 / 618
    expect(dna.directional_bias).to.be.closeTo(198 / 618, 1e-12);
  });

  it("leaves a feature null when there is nothing to measure it from", () => {
    const dna = measureDna(5, [trade(1, "TSLA", "buy", 100)], 1);
    expect(dna.holding_hours).to.equal(null);
    expect(dna.prior_move_alignment).to.equal(null);
    expect(dna.directional_bias).to.equal(1);
    // Days competing 0 (as of the first snapshot): no rate per day can be measured.
    const instant = measureDna(5, [trade(0, "TSLA", "buy", 100)], 0);
    expect([instant.trades_per_day, instant.decisions_per_day]).to.deep.equal([null, null]);
  });

  it("a discretionary agent, or one with fewer than 5 decisions, keeps match 1", () => {
    const contrary: DnaFeatures = {
      trades_per_day: 0,
      decisions_per_day: 0,
      holding_hours: 1000,
      directional_bias: 1,
      prior_move_alignment: -1,
    };
    expect(strategyMatch(contrary, "momentum", 5, F)).to.equal(0);
    expect(strategyMatch(contrary, "discretionary", 50, F)).to.equal(1);
    expect(strategyMatch(contrary, "momentum", 4, F)).to.equal(1);
  });

  it("region fit is 1 inside, falls linearly to 0 at one width outside", () => {
    const region = { feature: "holding_hours", min: 72, max: null, width: 72 } as const;
    expect(regionFit(100, region)).to.equal(1);
    expect(regionFit(36, region)).to.equal(0.5);
    expect(regionFit(0, region)).to.equal(0);
    // Below a max with no min (mean-reversion's alignment): inside, whatever the sign.
    const below = { feature: "prior_move_alignment", min: null, max: -0.2, width: 0.4 } as const;
    expect(regionFit(-0.5, below)).to.equal(1);
    expect(regionFit(0, below)).to.equal(0.5);
  });

  it("a feature that cannot be measured drops out of the mean instead of counting as a fit", () => {
    const features: DnaFeatures = {
      trades_per_day: 0.25, // half a width below 0.5: fit 0.5
      decisions_per_day: 3,
      holding_hours: 10, // fits
      directional_bias: null,
      prior_move_alignment: null,
    };
    expect(strategyMatch(features, "momentum", 5, F)).to.equal(0.75);
    expect(
      strategyMatch({ ...features, holding_hours: null, trades_per_day: null }, "momentum", 5, F),
    ).to.equal(1);
  });

  it("property: match lies in [0, 1] for any trades and style", () => {
    const trades = fc
      .array(
        fc.record({
          atMs: fc.integer({ min: 0, max: 1000 }).map((h) => h * H),
          asset: fc.constantFrom("A", "B"),
          buy: fc.boolean(),
          quantity: fc.integer({ min: 1, max: 1000 }),
          price: fc.integer({ min: 1, max: 500 }),
        }),
        { maxLength: 20 },
      )
      .map((list) => [...list].sort((a, b) => a.atMs - b.atMs));
    fc.assert(
      fc.property(
        trades,
        fc.integer({ min: 0, max: 20 }),
        fc.constantFrom(...STYLES),
        (list, decisions, style) => {
          const dna = measureDna(decisions, list, 3);
          expect(strategyMatch(dna, style, decisions, F)).to.be.within(0, 1);
          if (dna.directional_bias !== null) expect(dna.directional_bias).to.be.within(-1, 1);
          if (dna.prior_move_alignment !== null) expect(dna.prior_move_alignment).to.be.within(-1, 1);
        },
      ),
    );
  });
});
