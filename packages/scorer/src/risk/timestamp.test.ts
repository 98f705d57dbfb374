import { expect } from "chai";
import { InvalidInputError } from "../errors";
import { RFC3339, SECONDS_PER_DAY, toUnixSeconds, utcDay } from "./timestamp";

const REFUSED = "p: must be Unix seconds or an RFC 3339 date-time with a zone";

describe("risk timestamps", () => {
  it("reads Unix seconds as they are and RFC 3339 with any zone as Unix seconds", () => {
    expect(toUnixSeconds(1767225600.5, "p")).to.equal(1767225600.5);
    expect(toUnixSeconds("2026-01-01T00:00:00Z", "p")).to.equal(1767225600);
    expect(toUnixSeconds("2026-01-01T00:00:00.25Z", "p")).to.equal(1767225600.25);
    expect(toUnixSeconds("2026-01-01T02:00:00+02:00", "p")).to.equal(1767225600);
    expect(toUnixSeconds("2025-12-31T18:30:00-05:30", "p")).to.equal(1767225600);
  });

  it("refuses non-finite numbers, zoneless or malformed text, impossible dates and non-strings", () => {
    const dateLike = { toString: () => "2026-01-01T00:00:00Z" };
    const bad = [
      NaN,
      Infinity,
      "2026-01-01T00:00:00",
      "2026-01-01",
      " 2026-01-01T00:00:00Z",
      "2026-01-01T00:00:00Z ",
      "2026-01-01T00:00:00.Z",
      "2026-01-01T00:00:00+0200",
      "2026-13-01T00:00:00Z",
      // Date.parse reads both of these; only the anchored pattern keeps them out.
      "+002026-01-01T00:00:00Z",
      "2026-01-01T00:00:00Z\u0000",
      dateLike,
      null,
    ];
    for (const at of bad) {
      expect(() => toUnixSeconds(at, "p"), String(at)).to.throw(InvalidInputError, REFUSED);
    }
    expect(RFC3339.test("2026-01-01T00:00:00.123456Z")).to.equal(true);
  });

  it("the UTC day counts whole days from 1970-01-01, whatever the zone written", () => {
    expect(SECONDS_PER_DAY).to.equal(86_400);
    expect(utcDay("2026-01-01T00:00:00Z", "p")).to.equal(20454);
    expect(utcDay("2026-01-01T23:59:59Z", "p")).to.equal(20454);
    expect(utcDay("2026-01-01T23:30:00-01:00", "p")).to.equal(20455);
    expect(utcDay(86_399, "p")).to.equal(0);
    expect(() => utcDay("noon", "p")).to.throw(InvalidInputError, REFUSED);
  });
});
