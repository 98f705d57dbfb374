import { expect } from "chai";
import type { FromSchema } from "./schema-type";

// The checks are the compiler's: `npx tsc` fails if FromSchema grows looser or stricter than
// these schemas (each @ts-expect-error must stay an error). The test runs them through JSON.
const view = {
  type: "object",
  required: ["id", "score", "state", "rows"],
  properties: {
    id: { type: "string" },
    score: { type: ["number", "null"] },
    state: { anyOf: [{ type: "string", enum: ["normal", "wind-down"] }, { type: "null" }] },
    method: { type: "string", const: "referee/v1" },
    rows: {
      type: "array",
      items: { type: "object", required: ["n"], properties: { n: { type: "integer" } } },
    },
    measures: { type: "object", additionalProperties: { type: ["string", "number"] } },
    open: { type: "object", additionalProperties: true },
  },
} as const;
type View = FromSchema<typeof view>;

const full: View = {
  id: "a",
  score: null,
  state: "wind-down",
  method: "referee/v1",
  rows: [{ n: 1 }],
  measures: { buys: 4, note: "x" },
  open: { anything: [1] },
};
const least: View = { id: "b", score: 1.5, state: null, rows: [] };

// @ts-expect-error a required property is missing
const noScore: View = { id: "c", state: null, rows: [] };
// @ts-expect-error an enum admits only its values
const badState: View = { id: "d", score: null, state: "paused", rows: [] };
// @ts-expect-error a const admits only itself
const badMethod: View = { id: "e", score: null, state: null, rows: [], method: "referee/v2" };
// @ts-expect-error items keep their own required properties
const badRow: View = { id: "f", score: null, state: null, rows: [{}] };
// @ts-expect-error additionalProperties with a schema types every value
const badMeasure: View = { id: "g", score: null, state: null, rows: [], measures: { x: true } };

describe("FromSchema: the type of a route's response schema", () => {
  it("admits the answers its schema describes", () => {
    const answers = [full, least, noScore, badState, badMethod, badRow, badMeasure];
    for (const answer of [full, least]) expect(answer).to.include.all.keys(...view.required);
    expect(answers.map((a) => JSON.parse(JSON.stringify(a)) as unknown)).to.deep.equal(answers);
  });
});
