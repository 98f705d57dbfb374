import { expect } from "chai";
import fc from "fast-check";
import { InvalidInputError, seal, type Hex32 } from "@augur/scorer";
import { addDays } from "./days";
import { NoticeRefusedError } from "./errors";
import { methodologyNoticeBody, modeNoticeBody } from "./records";
import { dayN, referenceHistory, scriptedDays } from "../../test-support/modes/testing";
import {
  modeOn,
  modeTimeline,
  noticeEffective,
  type FinalAnchor,
  type OperatorNotice,
  type StewardshipDay,
} from "./timeline";

const DAYS = scriptedDays(referenceHistory());
const notice = (noticed: string, to: OperatorNotice["to"], reason = "operator decision"): OperatorNotice => ({
  seal: seal({ noticed, to, reason }) as Hex32,
  noticed,
  to,
  reason,
});
const FINAL: Omit<FinalAnchor, "day"> = {
  anchorIndex: 7,
  treeSize: 120,
  root: `0x${"ab".repeat(32)}`,
  chainId: 31337,
  registry: "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512",
  txHash: `0x${"cd".repeat(32)}`,
  blockNumber: 300,
};

describe("mode timeline", () => {
  it("follows the triggers: maintenance on day 39, active again on day 45, wind-down on day 70", () => {
    const timeline = modeTimeline({ days: DAYS, notices: [], through: dayN(74) });
    expect(
      timeline.map((t) => [t.mode, t.since, t.cause.kind === "trigger" && t.cause.trigger]),
    ).to.deep.equal([
      ["maintenance", dayN(39), "volume"],
      ["active", dayN(45), "volume-recovered"],
      // Volume last fired on day 44, inside the window 41…70: both conditions met.
      ["wind-down", dayN(70), "both"],
    ]);
    // Each cause names the day record it comes from, by seal.
    expect(timeline.map((t) => t.cause.kind === "trigger" && t.cause.seal)).to.deep.equal(
      [39, 45, 70].map((d) => DAYS[d]!.seal),
    );
    expect([38, 39, 44, 45, 69, 70, 74].map((d) => modeOn(timeline, dayN(d)))).to.deep.equal([
      "active",
      "maintenance",
      "maintenance",
      "active",
      "active",
      "wind-down",
      "wind-down",
    ]);
  });

  it("decides nothing after `through`: the cycle of day 44 sees only the maintenance", () => {
    const timeline = modeTimeline({ days: DAYS, notices: [], through: dayN(44) });
    expect(timeline.map((t) => t.mode)).to.deep.equal(["maintenance"]);
  });

  it("holders alone wind down with the holders cause", () => {
    const days = scriptedDays(referenceHistory().map((m) => ({ ...m, organicVolumeUsd: 1000 })));
    const timeline = modeTimeline({ days, notices: [], through: dayN(74) });
    expect(timeline).to.have.length(1);
    expect(timeline[0]!.mode).to.equal("wind-down");
    expect(timeline[0]!.cause).to.deep.include({ kind: "trigger", trigger: "holders", day: dayN(70) });
  });

  it("an operator notice takes effect exactly 30 days after it is given, not a day earlier", () => {
    const given = notice(dayN(2), "maintenance", "treasury review");
    expect(noticeEffective(given)).to.equal(dayN(32));
    const before = modeTimeline({ days: DAYS, notices: [given], through: dayN(31) });
    expect(before).to.deep.equal([]);
    const after = modeTimeline({ days: DAYS, notices: [given], through: dayN(32) });
    expect(after).to.deep.equal([
      {
        mode: "maintenance",
        since: dayN(32),
        cause: { kind: "operator", notice: given.seal, noticed: dayN(2), reason: "treasury review" },
      },
    ]);
  });

  it("an operator maintenance outlasts a volume recovery; only an operator notice lifts it", () => {
    const timeline = modeTimeline({
      days: DAYS,
      notices: [notice(dayN(0), "maintenance"), notice(dayN(20), "active")],
      through: dayN(60),
    });
    expect(timeline.map((t) => [t.mode, t.since, t.cause.kind])).to.deep.equal([
      ["maintenance", dayN(30), "operator"],
      // Day 39's volume trigger and day 45's recovery change nothing: the operator holds it.
      ["active", dayN(50), "operator"],
    ]);
  });

  it("lifting a trigger's maintenance by notice changes nothing: only volume ends it", () => {
    const timeline = modeTimeline({ days: DAYS, notices: [notice(dayN(10), "active")], through: dayN(44) });
    expect(timeline.map((t) => t.mode)).to.deep.equal(["maintenance"]);
  });

  it("an operator wind-down needs no trigger, and wind-down is final", () => {
    const timeline = modeTimeline({
      days: DAYS,
      notices: [notice(dayN(1), "wind-down", "the operator stops"), notice(dayN(5), "active")],
      through: dayN(74),
    });
    expect(timeline.map((t) => [t.mode, t.since])).to.deep.equal([["wind-down", dayN(31)]]);
  });

  it("archives only a wind-down, on the day its final anchor is given", () => {
    const early = modeTimeline({
      days: DAYS,
      notices: [],
      through: dayN(60),
      finalAnchor: { ...FINAL, day: dayN(60) },
    });
    expect(early.map((t) => t.mode)).to.deep.equal(["maintenance", "active"]);
    const late = modeTimeline({
      days: DAYS,
      notices: [],
      through: dayN(74),
      finalAnchor: { ...FINAL, day: dayN(71) },
    });
    expect(late[late.length - 1]).to.deep.equal({
      mode: "archived",
      since: dayN(71),
      cause: { kind: "final-anchor", ...FINAL },
    });
  });

  it("property: changes only, wind-down final, notices 30 days late, same input same timeline", () => {
    const series = fc.array(
      fc.record({
        holders: fc.integer({ min: 0, max: 300 }),
        organicVolumeUsd: fc.constantFrom(0, 499.99, 500, 2000),
      }),
      { minLength: 1, maxLength: 90 },
    );
    const notices = fc.array(
      fc.record({
        at: fc.integer({ min: 0, max: 90 }),
        to: fc.constantFrom("active", "maintenance", "wind-down"),
      }),
      { maxLength: 4 },
    );
    fc.assert(
      fc.property(series, notices, fc.integer({ min: 0, max: 120 }), (s, n, through) => {
        const days: StewardshipDay[] = scriptedDays(s);
        const given = n.map((x, i) => notice(dayN(x.at), x.to as OperatorNotice["to"], `n${i}`));
        const input = { days, notices: given, through: dayN(through) };
        const timeline = modeTimeline(input);
        expect(modeTimeline(input)).to.deep.equal(timeline);
        let previous: (typeof timeline)[number] | undefined;
        for (const t of timeline) {
          expect(t.since <= dayN(through)).to.equal(true);
          if (previous) {
            expect(t.since >= previous.since).to.equal(true);
            expect(previous.mode).to.not.equal("wind-down");
            expect(t.mode !== previous.mode || t.cause.kind === "operator").to.equal(true);
          } else expect(t.mode).to.not.equal("active");
          if (t.cause.kind === "operator") expect(t.since).to.equal(addDays(t.cause.noticed, 30));
          if (t.cause.kind === "trigger") expect(t.since).to.equal(t.cause.day);
          previous = t;
        }
      }),
    );
  });
});

describe("notice rules", () => {
  it("a mode notice takes effect 30 days after the day it is given", () => {
    expect(modeNoticeBody("wind-down", "  the operator stops ", "2027-01-31")).to.deep.equal({
      format: "augur-notice/v1",
      notice: "mode",
      to: "wind-down",
      reason: "the operator stops",
      noticed: "2027-01-31",
      effective: "2027-03-02",
    });
  });

  it("refuses a mode notice without a reason, with a multi-line one or to an unknown mode", () => {
    expect(() => modeNoticeBody("maintenance", "", "2027-01-01")).to.throw(InvalidInputError, /reason/);
    expect(() => modeNoticeBody("maintenance", "a\nb", "2027-01-01")).to.throw(InvalidInputError, /one line/);
    expect(() => modeNoticeBody("archived", "x", "2027-01-01")).to.throw(InvalidInputError, /must be one of/);
  });

  it("a methodology change needs 14 days' notice: 13 days ahead is refused, 14 accepted", () => {
    expect(() => methodologyNoticeBody("augur-score/v2", "2027-01-14", "2027-01-01")).to.throw(
      NoticeRefusedError,
      /14 days' notice.*2027-01-15 at the earliest/,
    );
    expect(methodologyNoticeBody("augur-score/v2", "2027-01-15", "2027-01-01")).to.deep.include({
      formula: "augur-score/v2",
      announced: "2027-01-01",
      effective: "2027-01-15",
    });
  });

  it("refuses a formula that is not name/vN and an effective date that is not a date", () => {
    expect(() => methodologyNoticeBody("v2", "2027-02-01", "2027-01-01")).to.throw(
      InvalidInputError,
      /formula/,
    );
    expect(() => methodologyNoticeBody("augur-score/v2", "2027-02-30", "2027-01-01")).to.throw(
      InvalidInputError,
      /effective/,
    );
  });
});
