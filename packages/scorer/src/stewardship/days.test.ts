import { expect } from "chai";
import { InvalidInputError } from "../errors";
import { consecutiveDays, parseDay } from "./days";

describe("stewardship days: parseDay and consecutiveDays", () => {
  it("numbers a real YYYY-MM-DD date in days since 1970-01-01", () => {
    expect(parseDay("1970-01-01")).to.equal(0);
    expect(parseDay("1970-01-02")).to.equal(1);
    expect(parseDay("2024-02-29")).to.equal(19_782);
    expect(parseDay("2026-12-02")).to.equal(20_789);
  });

  it("refuses text that is not exactly YYYY-MM-DD", () => {
    for (const text of [
      "",
      "2026-12-02x",
      "x2026-12-02",
      "02026-12-02",
      "2026-012-02",
      "2026-12-002",
      "226-12-02",
      "2026-1-02",
      "2026-12-2",
      "2026/12/02",
      "2026-12-02T00:00:00Z",
      "abcd-ef-gh",
    ]) {
      expect(parseDay(text), text).to.equal(undefined);
    }
  });

  it("refuses dates the calendar does not have", () => {
    for (const text of ["2026-02-29", "2026-02-30", "2026-13-01", "2026-00-10", "2026-12-00", "2026-12-32"]) {
      expect(parseDay(text), text).to.equal(undefined);
    }
    // Date.UTC reads years 0–99 as 1900–1999: only the year check catches it.
    expect(parseDay("0050-01-01")).to.equal(undefined);
  });

  const path = (i: number) => `days[${i}]`;
  const refusal = (days: string[]) => {
    try {
      consecutiveDays(days, path);
    } catch (error) {
      expect(error).to.be.instanceOf(InvalidInputError);
      return (error as InvalidInputError).message;
    }
    throw new Error(`accepted ${days.join(", ")}`);
  };

  it("returns the day numbers of consecutive days", () => {
    expect(consecutiveDays([], path)).to.deep.equal([]);
    expect(consecutiveDays(["2026-12-02"], path)).to.deep.equal([20_789]);
    expect(consecutiveDays(["2024-02-28", "2024-02-29", "2024-03-01"], path)).to.deep.equal([
      19_781, 19_782, 19_783,
    ]);
  });

  it("refuses a non-date, a gap, a repeat and a step back, naming the offending day", () => {
    expect(refusal(["2026-12-01", "2026-12-32"])).to.equal("days[1]: must be a YYYY-MM-DD date");
    expect(refusal(["nope"])).to.equal("days[0]: must be a YYYY-MM-DD date");
    expect(refusal(["2026-12-01", "2026-12-02", "2026-12-04"])).to.equal(
      "days[2]: must be the day after 2026-12-02 (one measurement a day, no gaps)",
    );
    expect(refusal(["2026-12-02", "2026-12-02"])).to.equal(
      "days[1]: must be the day after 2026-12-02 (one measurement a day, no gaps)",
    );
    expect(refusal(["2026-12-02", "2026-12-01"])).to.equal(
      "days[1]: must be the day after 2026-12-02 (one measurement a day, no gaps)",
    );
  });
});
