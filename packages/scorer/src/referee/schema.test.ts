import { expect } from "chai";
import schema from "../../schema/referee-input.schema.json";
import { CLOSE_FIELDS, DIRECTIONS, INPUT_FIELDS, PREDICTION_FIELDS } from "./input";

// The schema documents the file for other languages; the validator is what runs. Keep them one.
describe("referee-input.schema.json", () => {
  it("requires exactly the fields the validator requires, and no others", () => {
    expect(schema.required).to.deep.equal([...INPUT_FIELDS]);
    expect(Object.keys(schema.properties)).to.deep.equal([...INPUT_FIELDS]);
    const close = schema.properties.closes.additionalProperties.items;
    expect(close.required).to.deep.equal([...CLOSE_FIELDS]);
    const prediction = schema.properties.predictions.items;
    expect(prediction.required).to.deep.equal([...PREDICTION_FIELDS]);
    expect(Object.keys(prediction.properties)).to.deep.equal([...PREDICTION_FIELDS]);
    expect(prediction.properties.direction.enum).to.deep.equal([...DIRECTIONS]);
    for (const object of [schema, close, prediction]) expect(object.additionalProperties).to.equal(false);
  });

  it("describes hours with the same pattern the validator accepts", () => {
    const pattern = new RegExp(schema.$defs.isoHour.pattern);
    expect(pattern.test("2026-11-30T07:00:00Z")).to.equal(true);
    expect(pattern.test("2026-11-30T07:30:00Z")).to.equal(false);
  });
});
