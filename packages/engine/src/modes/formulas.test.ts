import { expect } from "chai";
import fc from "fast-check";
import {
  announcedFormulas,
  effectiveTime,
  formulaInForce,
  formulaPeriods,
  missingNotice,
  type FormulaNotice,
  type FormulaVersions,
} from "./formulas";

const DAY = 86_400;
const VERSIONS: FormulaVersions<string> = [
  { id: "x/v1", impl: "one" },
  { id: "x/v2", impl: "two" },
  { id: "x/v3", impl: "three" },
];
const notice = (formula: string, sealedOn: string, effective: string): FormulaNotice => ({
  formula,
  sealedOn,
  effective,
});

describe("formula registry: the version in force by date", () => {
  it("counts a notice sealed 14 days ahead, not one sealed 13 days ahead", () => {
    const announced = announcedFormulas([
      notice("x/v2", "2027-01-01", "2027-01-15"),
      notice("x/v3", "2027-01-02", "2027-01-15"),
    ]);
    expect([...announced]).to.deep.equal([["x/v2", effectiveTime("2027-01-15")]]);
    expect(missingNotice("x/v2", [notice("x/v2", "2027-01-01", "2027-01-15")])).to.equal(undefined);
    expect(missingNotice("x/v3", [notice("x/v3", "2027-01-02", "2027-01-15")])).to.equal(
      "refused: this build carries x/v3 but its notice, sealed on 2027-01-02 for 2027-01-15, gives 13 days' notice, not 14",
    );
  });

  it("keeps the first valid notice of a formula: a later one cannot move its date", () => {
    const announced = announcedFormulas([
      notice("x/v2", "2027-01-01", "2027-02-01"),
      notice("x/v2", "2027-01-01", "2027-01-20"),
    ]);
    expect(announced.get("x/v2")).to.equal(effectiveTime("2027-02-01"));
  });

  it("runs the genesis version until the first effective time, then the newest in force", () => {
    const announced = new Map([
      ["x/v2", 10 * DAY],
      ["x/v3", 20 * DAY],
    ]);
    const at = (t: number) => formulaInForce(VERSIONS, announced, t).id;
    expect([at(10 * DAY - 1), at(10 * DAY), at(20 * DAY - 1), at(20 * DAY)]).to.deep.equal([
      "x/v1",
      "x/v2",
      "x/v2",
      "x/v3",
    ]);
    // An unannounced version never comes into force, however old the clock.
    expect(formulaInForce(VERSIONS, new Map(), 1e12).id).to.equal("x/v1");
  });

  it("splits a span at every effective time inside it, each part run by the version in force over all of it", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 0, max: 40 }),
        (v2, v3, a, b) => {
          const announced = new Map([
            ["x/v2", v2 * DAY],
            ["x/v3", v3 * DAY],
          ]);
          const [after, through] = [Math.min(a, b) * DAY, Math.max(a, b) * DAY + 1];
          const periods = formulaPeriods(VERSIONS, announced, after, through);
          expect(periods.at(-1)!.through).to.equal(through);
          let from = after + 1;
          for (const p of periods) {
            for (const t of [from, p.through])
              expect(formulaInForce(VERSIONS, announced, t)).to.equal(p.version);
            from = p.through + 1;
          }
          for (let i = 1; i < periods.length; i++)
            expect(periods[i]!.version).not.to.equal(periods[i - 1]!.version);
        },
      ),
    );
  });
});
