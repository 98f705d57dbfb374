import { expect } from "chai";
import { InvalidInputError } from "../errors";
import type { ParsedPrediction, ParsedRefereeInput } from "./input";
import type { MuEntry, MuTable } from "./mu";
import { agentSchedule, compareSchedule, upUnitsOf } from "./schedule";

// Hand-built parsed inputs: the schedule is scored without parsing or the mu pass in the way.
function call(
  row: number,
  slotHour: number,
  pair: string,
  horizon_h: number,
  over: Partial<ParsedPrediction> = {},
) {
  const slot = new Date(slotHour * 3_600_000).toISOString();
  const base = { agent: "a", slot, pair, horizon_h, direction: "up", size: 100, row, slotHour };
  return { ...base, ...over } as ParsedPrediction;
}

function muOf(entries: [pair: string, horizonH: number, mu: number | null][]): MuTable {
  const table = new Map<string, Map<number, MuEntry>>();
  for (const [pair, horizonH, mu] of entries) {
    if (!table.has(pair)) table.set(pair, new Map());
    table.get(pair)!.set(horizonH, { pair, horizonH, mu, slots: 1 });
  }
  return table;
}

function inputOf(closes: Record<string, [hour: number, close: number][]>): ParsedRefereeInput {
  const byPair = new Map(Object.entries(closes).map(([pair, rows]) => [pair, new Map(rows)]));
  return { epoch: 7, epochText: "7", closes: byPair, predictions: [] };
}

describe("referee schedule: order, outcome units, pending calls", () => {
  it("orders by slot, then pair by code point, then horizon, then input row (exact differences)", () => {
    expect(compareSchedule(call(9, 1, "B", 5), call(0, 3, "A", 1))).to.equal(-2);
    expect(compareSchedule(call(0, 3, "A", 1), call(9, 1, "B", 5))).to.equal(2);
    // Same slot: pair decides before horizon and row; U+FF5E sorts before U+1F600 (a surrogate pair).
    expect(compareSchedule(call(9, 1, "\uff5e", 5), call(0, 1, "\ud83d\ude00", 1))).to.be.below(0);
    expect(compareSchedule(call(0, 1, "\ud83d\ude00", 1), call(9, 1, "\uff5e", 5))).to.be.above(0);
    expect(compareSchedule(call(9, 1, "A", 2), call(0, 1, "A", 6))).to.equal(-4);
    expect(compareSchedule(call(9, 1, "A", 6), call(0, 1, "A", 2))).to.equal(4);
    expect(compareSchedule(call(2, 1, "A", 6), call(5, 1, "A", 6))).to.equal(-3);
    expect(compareSchedule(call(5, 1, "A", 6), call(2, 1, "A", 6))).to.equal(3);
    expect(compareSchedule(call(5, 1, "A", 6), call(5, 1, "A", 6))).to.equal(0);
  });

  it("upUnits = round-half-even((raw − mu) × size / 100 × 10¹²)", () => {
    expect(upUnitsOf(0.1, 0.02, 50)).to.deep.equal({ upOutcome: 0.04, upUnits: 40_000_000_000 });
    expect(upUnitsOf(-0.1, 0.03, 40)).to.deep.equal({
      upOutcome: (-0.1 - 0.03) * 0.4,
      upUnits: -52_000_000_000,
    });
    // 2.5 units exactly: the tie goes to the even 2.
    expect(upUnitsOf(2.5e-12, 0, 100)).to.deep.equal({ upOutcome: 2.5e-12, upUnits: 2 });
    expect(upUnitsOf(0.5, 0.5, 100)).to.deep.equal({ upOutcome: 0, upUnits: 0 });
  });

  it("scores calls in schedule order with raw, mu, sign and units; the input list is left as given", () => {
    const input = inputOf({
      A: [
        [0, 100],
        [1, 110],
        [2, 90],
        [3, 99],
      ],
      B: [
        [0, 50],
        [2, 60],
      ],
    });
    const mu = muOf([
      ["A", 1, 0.03],
      ["A", 2, -0.01],
      ["B", 2, 0.2],
    ]);
    const given = [
      call(3, 1, "A", 1, { direction: "down", size: 40 }),
      call(2, 0, "B", 2),
      call(1, 0, "A", 2, { size: 25 }),
      call(0, 0, "A", 1),
    ];
    const before = [...given];
    const schedule = agentSchedule(input, mu, "a", given);
    expect(given).to.deep.equal(before);
    expect(schedule.agent).to.equal("a");
    expect(schedule.pendingCalls).to.equal(0);
    const rows = schedule.calls.map((c) => [c.prediction.row, c.raw, c.mu, c.sign, c.upOutcome, c.upUnits]);
    expect(rows).to.deep.equal([
      [0, 110 / 100 - 1, 0.03, 1, (110 / 100 - 1 - 0.03) * 1, 70_000_000_000],
      [1, 90 / 100 - 1, -0.01, 1, (90 / 100 - 1 + 0.01) * 0.25, -22_500_000_000],
      [2, 60 / 50 - 1, 0.2, 1, 60 / 50 - 1 - 0.2, 0],
      [3, 90 / 110 - 1, 0.03, -1, (90 / 110 - 1 - 0.03) * 0.4, -84_727_272_727],
    ]);
    expect(schedule.calls[3]!.prediction).to.equal(given[0]);
  });

  it("counts as pending, not scored, a call without a later close or without a mu value", () => {
    const input = inputOf({
      A: [
        [0, 100],
        [1, 110],
      ],
      B: [
        [0, 50],
        [1, 55],
      ],
    });
    const mu = muOf([
      ["A", 1, 0.01],
      ["A", 5, 0.02],
      ["B", 2, null],
    ]);
    const pending = [
      call(0, 0, "A", 5), // no close at hour 5
      call(1, 0, "B", 1), // no mu row for (B, 1)
      call(2, 0, "C", 1), // no mu row for the pair at all
      call(3, 0, "B", 2), // mu is null; also no close at hour 2
    ];
    const closes = new Map(input.closes).set(
      "C",
      new Map([
        [0, 1],
        [1, 2],
      ]),
    );
    const schedule = agentSchedule({ ...input, closes }, mu, "b", [...pending, call(4, 0, "A", 1)]);
    expect(schedule.pendingCalls).to.equal(4);
    expect(schedule.calls.map((c) => c.prediction.row)).to.deep.equal([4]);
    expect(schedule.calls[0]!.upUnits).to.equal(90_000_000_000);
  });

  it("a null mu alone makes the call pending even when the later close exists", () => {
    const input = inputOf({
      A: [
        [0, 100],
        [1, 110],
      ],
    });
    const schedule = agentSchedule(input, muOf([["A", 1, null]]), "a", [call(0, 0, "A", 1)]);
    expect(schedule).to.deep.equal({ agent: "a", calls: [], pendingCalls: 1 });
  });

  it("refuses an outcome that overflows the units, naming the row", () => {
    const input = inputOf({
      A: [
        [0, 1e-300],
        [1, 1e300],
      ],
    });
    const overflow = () => agentSchedule(input, muOf([["A", 1, 0]]), "a", [call(6, 0, "A", 1)]);
    expect(overflow).to.throw(
      InvalidInputError,
      "predictions[6]: outcome out of range: closes too far apart",
    );
    try {
      overflow();
    } catch (error) {
      expect((error as InvalidInputError).path).to.equal("predictions[6]");
    }
  });
});
