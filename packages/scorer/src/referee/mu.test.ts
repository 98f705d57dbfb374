import { expect } from "chai";
import { parseIsoHour } from "./hours";
import { parseRefereeInput } from "./input";
import { muRows, muTable, rawMove, universeMean } from "./mu";

const h0 = parseIsoHour("2026-11-30T00:00:00Z")!;

describe("mu: the season-slot-universe mean", () => {
  it("raw = close[t + h] / close[t] − 1", () => {
    expect(rawMove(100, 110)).to.equal(110 / 100 - 1);
    expect(rawMove(200, 150)).to.equal(-0.25);
  });

  it("averages every hour t that has a close at t + h, and only those (gaps leave slots out)", () => {
    // Hours 0, 1, 2, 4: for h = 1 the universe is {0, 1}; hour 2 has no close at 3, hour 4 none at 5.
    const closes = new Map([
      [h0, 100],
      [h0 + 1, 110],
      [h0 + 2, 99],
      [h0 + 4, 120],
    ]);
    const one = universeMean(closes, 1);
    expect(one.slots).to.equal(2);
    expect(one.mu).to.equal((rawMove(100, 110) + rawMove(110, 99)) / 2);
    // For h = 2 the universe is {0 → 2, 2 → 4}.
    const two = universeMean(closes, 2);
    expect(two).to.deep.equal({ mu: (rawMove(100, 99) + rawMove(99, 120)) / 2, slots: 2 });
    expect(universeMean(closes, 5)).to.deep.equal({ mu: null, slots: 0 });
  });

  it("sums in ascending hour order whatever order the closes were listed in", () => {
    const ascending = new Map([
      [h0, 3],
      [h0 + 1, 7],
      [h0 + 2, 1],
      [h0 + 3, 9],
    ]);
    const shuffled = new Map([...ascending].reverse());
    expect(universeMean(shuffled, 1)).to.deep.equal(universeMean(ascending, 1));
  });

  it("sums left to right in ascending hour order: the exact double, not a reordered one", () => {
    // Closes 3, 7, 1, 9, 2 at hours 0–4: raw moves 4/3, −6/7, 8, −7/9. Summed from hour 0 up they
    // make 7.698412698412699; from hour 3 down 7.6984126984126995, one unit in the last place more.
    const closes = [3, 7, 1, 9, 2];
    const expected = (rawMove(3, 7) + rawMove(7, 1) + rawMove(1, 9) + rawMove(9, 2)) / 4;
    expect(expected).to.equal(1.9246031746031746);
    for (const order of [
      [4, 3, 2, 1, 0],
      [2, 0, 4, 1, 3],
      [1, 3, 0, 4, 2],
    ]) {
      const listed = new Map(order.map((h) => [h0 + h, closes[h]!]));
      expect(universeMean(listed, 1), order.join()).to.deep.equal({ mu: expected, slots: 4 });
    }
  });

  it("tabulates each (pair, horizon) that some prediction names, sorted", () => {
    const at = (h: number) => new Date((h0 + h) * 3_600_000).toISOString();
    const input = parseRefereeInput({
      epoch: 1,
      closes: {
        "TSLA/USDG": [0, 1, 2].map((h) => ({ at: at(h), close: 100 + h })),
        "AAPL/USDG": [0, 1].map((h) => ({ at: at(h), close: 200 - h })),
      },
      predictions: [
        { agent: "a", slot: at(0), pair: "TSLA/USDG", horizon_h: 2, direction: "up", size: 1 },
        { agent: "b", slot: at(0), pair: "TSLA/USDG", horizon_h: 1, direction: "up", size: 1 },
        { agent: "b", slot: at(1), pair: "AAPL/USDG", horizon_h: 3, direction: "up", size: 1 },
      ],
    });
    const rows = muRows(muTable(input));
    expect(rows.map((r) => [r.pair, r.horizonH, r.slots])).to.deep.equal([
      ["AAPL/USDG", 3, 0],
      ["TSLA/USDG", 1, 2],
      ["TSLA/USDG", 2, 1],
    ]);
    expect(rows[0]!.mu).to.equal(null);
    expect(rows[2]!.mu).to.equal(102 / 100 - 1);
  });
});
