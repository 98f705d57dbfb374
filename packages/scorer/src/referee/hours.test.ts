import { expect } from "chai";
import { formatIsoHour, parseIsoHour } from "./hours";

describe("referee hours", () => {
  it("reads an ISO-8601 UTC hour as hours since 1970", () => {
    expect(parseIsoHour("1970-01-01T01:00:00Z")).to.equal(1);
    const hour = parseIsoHour("2026-11-30T07:00:00Z");
    expect(hour).to.equal(Date.UTC(2026, 10, 30, 7) / 3_600_000);
    for (const same of ["2026-11-30T07:00Z", "2026-11-30T07:00:00.000Z", "2026-11-30T07:00:00+00:00"]) {
      expect(parseIsoHour(same), same).to.equal(hour);
    }
  });

  for (const bad of [
    "2026-11-30T07:30:00Z", // not on the hour
    "2026-11-30T07:00:01Z",
    "2026-11-30T07:00:00", // no zone
    "2026-11-30T07:00:00+01:00", // not UTC
    "2026-02-30T07:00:00Z", // no such day
    "2026-11-30T24:00:00Z",
    "2026-11-30 07:00:00Z",
    "0099-01-01T00:00:00Z",
  ]) {
    it(`refuses ${bad}`, () => expect(parseIsoHour(bad)).to.equal(undefined));
  }

  it("writes an hour back in the canonical form", () => {
    expect(formatIsoHour(parseIsoHour("2026-11-30T07:00:00.0Z")!)).to.equal("2026-11-30T07:00:00Z");
  });
});
