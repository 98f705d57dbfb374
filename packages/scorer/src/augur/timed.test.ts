import { expect } from "chai";
import { InvalidInputError } from "../errors";
import { timedInSeason } from "./timed";

const T0 = Date.parse("2026-11-01T00:00:00Z");
const hour = (h: number) => new Date(T0 + h * 3_600_000).toISOString().replace(".000Z", "Z");
const row = (h: number, id: string) => ({ at: hour(h), id });
const at = (r: { at: string }) => r.at;
const ms = (...hours: number[]) => hours.map((h) => T0 + h * 3_600_000);

describe("augur timedInSeason", () => {
  it("returns the very same array when every row is inside and in order (equal times too)", () => {
    const rows = [row(0, "a"), row(1, "b"), row(1, "c"), row(5, "d")];
    const timed = timedInSeason(rows, at, T0, T0 + 5 * 3_600_000);
    expect(timed.rows).to.equal(rows);
    expect([...timed.ms]).to.deep.equal(ms(0, 1, 1, 5));
  });

  it("keeps rows exactly at the start and at the clock, drops the rows outside", () => {
    const rows = [row(-1, "before"), row(0, "start"), row(3, "clock"), row(4, "after")];
    const timed = timedInSeason(rows, at, T0, T0 + 3 * 3_600_000);
    expect(timed.rows.map((r) => r.id)).to.deep.equal(["start", "clock"]);
    expect([...timed.ms]).to.deep.equal(ms(0, 3));
  });

  it("puts rows in time order, equal times in input order", () => {
    const rows = [row(2, "x"), row(1, "y"), row(1, "z"), row(0, "w"), row(2, "v")];
    const timed = timedInSeason(rows, at, T0, T0 + 9 * 3_600_000);
    expect(timed.rows.map((r) => r.id)).to.deep.equal(["w", "y", "z", "x", "v"]);
    expect([...timed.ms]).to.deep.equal(ms(0, 1, 1, 2, 2));
  });

  it("judges order among the kept rows only: a dropped early row does not unsort them", () => {
    const rows = [row(9, "late"), row(1, "a"), row(2, "b")];
    const timed = timedInSeason(rows, at, T0, T0 + 5 * 3_600_000);
    expect(timed.rows.map((r) => r.id)).to.deep.equal(["a", "b"]);
    expect([...timed.ms]).to.deep.equal(ms(1, 2));
  });

  it("refuses a time that does not parse, naming the field", () => {
    expect(() => timedInSeason([{ at: "yesterday" }], at, T0, T0))
      .to.throw(InvalidInputError)
      .with.property("path", "at");
  });
});
