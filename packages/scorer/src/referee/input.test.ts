import { expect } from "chai";
import { InvalidInputError } from "../errors";
import { parseRefereeInput, type RefereeInput } from "./input";

function valid(): RefereeInput {
  return {
    epoch: 7,
    closes: {
      "TSLA/USDG": [
        { at: "2026-11-30T00:00:00Z", close: 100 },
        { at: "2026-11-30T01:00:00Z", close: 101 },
      ],
    },
    predictions: [
      {
        agent: "alice",
        slot: "2026-11-30T00:00:00Z",
        pair: "TSLA/USDG",
        horizon_h: 1,
        direction: "up",
        size: 50,
      },
    ],
  };
}

interface Editable {
  [field: string]: unknown;
  closes: { [pair: string]: { [field: string]: unknown }[] };
  predictions: { [field: string]: unknown }[];
}
const prediction = (i: Editable) => i.predictions[0]!;
const tslaClose = (i: Editable, row: number) => i.closes["TSLA/USDG"]![row]!;

/** A copy of the valid input with one change applied (a JSON round trip, then `edit`). */
function broken(edit: (input: Editable) => void): unknown {
  const copy = JSON.parse(JSON.stringify(valid()));
  edit(copy);
  return copy;
}

describe("parseRefereeInput", () => {
  it("indexes closes by pair and hour and keeps each prediction's row", () => {
    const parsed = parseRefereeInput(valid());
    expect(parsed.epochText).to.equal("7");
    const hour = Date.UTC(2026, 10, 30) / 3_600_000;
    expect(parsed.closes.get("TSLA/USDG")?.get(hour + 1)).to.equal(101);
    expect(parsed.predictions[0]).to.include({ row: 0, slotHour: hour, agent: "alice" });
  });

  it("accepts a string epoch and an empty season", () => {
    const parsed = parseRefereeInput({ epoch: "2026-S1", closes: {}, predictions: [] });
    expect(parsed.epochText).to.equal("2026-S1");
    expect(parsed.predictions).to.have.length(0);
  });

  const cases: [string, (input: Editable) => void, string][] = [
    ["a missing field", (i) => delete i.epoch, "epoch: is missing"],
    ["an unknown top-level field", (i) => (i.season = 1), "season: unknown field"],
    ["a negative epoch", (i) => (i.epoch = -1), "epoch: must be a non-negative integer or a string"],
    ["a bar in the epoch", (i) => (i.epoch = "a|b"), 'epoch: must not contain "|"'],
    [
      "closes not an object",
      (i) => Object.assign(i, { closes: [] }),
      "closes: must be an object of pair → closes",
    ],
    [
      "a close of zero",
      (i) => (tslaClose(i, 1).close = 0),
      'closes["TSLA/USDG"][1].close: must be a finite number above 0',
    ],
    [
      "a close off the hour",
      (i) => (tslaClose(i, 1).at = "2026-11-30T01:30:00Z"),
      'closes["TSLA/USDG"][1].at: must be an ISO-8601 UTC hour such as 2026-11-30T07:00:00Z',
    ],
    [
      "a repeated hour",
      (i) => (tslaClose(i, 1).at = "2026-11-30T00:00:00Z"),
      'closes["TSLA/USDG"][1].at: repeats the hour of closes["TSLA/USDG"][0]',
    ],
    [
      "predictions not an array",
      (i) => Object.assign(i, { predictions: {} }),
      "predictions: must be an array",
    ],
    [
      "a misspelt field",
      (i) => {
        prediction(i).horizon = 1;
      },
      "predictions[0].horizon: unknown field",
    ],
    ["an empty agent", (i) => (prediction(i).agent = ""), "predictions[0].agent: must be a non-empty string"],
    [
      "an unknown pair",
      (i) => (prediction(i).pair = "AAPL/USDG"),
      'predictions[0].pair: no closes for "AAPL/USDG"',
    ],
    [
      "a slot with no close",
      (i) => (prediction(i).slot = "2026-11-30T05:00:00Z"),
      'predictions[0].slot: not an hour present in closes["TSLA/USDG"]',
    ],
    [
      "a fractional horizon",
      (i) => (prediction(i).horizon_h = 1.5),
      "predictions[0].horizon_h: must be a whole number of hours, 1 or more",
    ],
    [
      "a zero horizon",
      (i) => (prediction(i).horizon_h = 0),
      "predictions[0].horizon_h: must be a whole number",
    ],
    [
      "a bad direction",
      (i) => (prediction(i).direction = "long"),
      'predictions[0].direction: must be "up" or "down"',
    ],
    [
      "a size above 100",
      (i) => (prediction(i).size = 101),
      "predictions[0].size: must be a number from 0 to 100",
    ],
    [
      "a size as text",
      (i) => (prediction(i).size = "50"),
      "predictions[0].size: must be a number from 0 to 100",
    ],
    ["an empty-string epoch", (i) => (i.epoch = ""), "epoch: must be a non-empty string"],
    ["a fractional epoch", (i) => (i.epoch = 1.5), "epoch: must be a non-negative integer or a string"],
    ["an empty pair name", (i) => (i.closes[""] = []), 'closes[""]: pair name must be non-empty'],
    [
      "closes of a pair not an array",
      (i) => Object.assign(i.closes, { "TSLA/USDG": {} }),
      'closes["TSLA/USDG"]: must be an array of { at, close }',
    ],
    [
      "a close row that is null",
      (i) => Object.assign(i.closes["TSLA/USDG"]!, { 1: null }),
      'closes["TSLA/USDG"][1]: must be an object',
    ],
    [
      "a close row with an extra field",
      (i) => (tslaClose(i, 1).volume = 5),
      'closes["TSLA/USDG"][1].volume: unknown field',
    ],
    [
      "a close as text",
      (i) => (tslaClose(i, 1).close = "101"),
      'closes["TSLA/USDG"][1].close: must be a finite number above 0',
    ],
    [
      "an infinite close",
      (i) => (tslaClose(i, 1).close = Infinity),
      'closes["TSLA/USDG"][1].close: must be a finite number above 0',
    ],
    [
      "a close that is NaN",
      (i) => (tslaClose(i, 1).close = NaN),
      'closes["TSLA/USDG"][1].close: must be a finite number above 0',
    ],
    [
      "a prediction that is text",
      (i) => Object.assign(i.predictions, { 0: "up" }),
      "predictions[0]: must be an object",
    ],
    [
      "a prediction that is an array",
      (i) => Object.assign(i.predictions, { 0: [] }),
      "predictions[0]: must be an object",
    ],
    [
      "an agent that is a number",
      (i) => (prediction(i).agent = 5),
      "predictions[0].agent: must be a non-empty string",
    ],
    ["an empty pair", (i) => (prediction(i).pair = ""), "predictions[0].pair: must be a non-empty string"],
    [
      "a slot off the hour",
      (i) => (prediction(i).slot = "2026-11-30T00:30:00Z"),
      "predictions[0].slot: must be an ISO-8601 UTC hour",
    ],
    [
      "a slot in an array (which a regex would read as its text)",
      (i) => (prediction(i).slot = ["2026-11-30T00:00:00Z"]),
      "predictions[0].slot: must be an ISO-8601 UTC hour",
    ],
    [
      "a size that is NaN",
      (i) => (prediction(i).size = NaN),
      "predictions[0].size: must be a number from 0 to 100",
    ],
    [
      "a negative size",
      (i) => (prediction(i).size = -0.5),
      "predictions[0].size: must be a number from 0 to 100",
    ],
  ];
  for (const [label, edit, message] of cases) {
    it(`refuses ${label}, naming the field and row`, () => {
      expect(() => parseRefereeInput(broken(edit)))
        .to.throw(InvalidInputError)
        .with.property("shortMessage")
        .that.satisfies((m: string) => m.startsWith(message));
    });
  }

  it("names the row of the bad prediction, not the first", () => {
    const input = broken((i) => {
      i.predictions.push({ ...prediction(i), slot: "2026-11-30T09:00:00Z" });
    });
    expect(() => parseRefereeInput(input)).to.throw(/^predictions\[1\]\.slot: not an hour present/);
  });

  it("refuses a top level that is not an object", () => {
    for (const top of [[], null, "{}", 7]) {
      expect(() => parseRefereeInput(top), String(top)).to.throw(InvalidInputError, "$: must be an object");
    }
  });

  it("accepts the edges: epoch 0, sizes 0 and 100, a down call", () => {
    const input = broken((i) => {
      i.epoch = 0;
      prediction(i).size = 0;
      i.predictions.push({ ...prediction(i), size: 100, direction: "down" });
    });
    const parsed = parseRefereeInput(input);
    expect(parsed.epochText).to.equal("0");
    expect(parsed.predictions.map((p) => [p.size, p.direction])).to.deep.equal([
      [0, "up"],
      [100, "down"],
    ]);
  });
});
