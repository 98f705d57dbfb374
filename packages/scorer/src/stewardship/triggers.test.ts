import { expect } from "chai";
import { InvalidInputError } from "../errors";
import { STEWARDSHIP_V1, type StewardshipConstants } from "./constants";
import { declinedBy, type DailyMeasurement, stewardshipStates } from "./triggers";

const day = (i: number) => new Date(Date.UTC(2027, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);

function series(
  holders: (d: number) => number,
  volume: (d: number) => number,
  days: number,
): DailyMeasurement[] {
  return Array.from({ length: days }, (_, d) => ({
    day: day(d),
    holders: holders(d),
    organicVolumeUsd: volume(d),
  }));
}

function run(holders: (d: number) => number, volume: (d: number) => number, days: number) {
  return stewardshipStates(series(holders, volume, days));
}

type Flag = "holdersTrigger" | "volumeTrigger" | "bothTrigger";
const firstDay = (states: ReturnType<typeof run>, flag: Flag) => states.findIndex((s) => s[flag]);

describe("stewardship triggers", () => {
  it("declinedBy: 15 % net decline, exactly, in integers", () => {
    expect(declinedBy(2000, 1700, 1500n)).to.equal(true);
    expect(declinedBy(2000, 1701, 1500n)).to.equal(false);
    expect(declinedBy(0, 0, 1500n)).to.equal(false);
  });

  it("holders: fire on the first day the 30-day window ending there shows a 15 % decline", () => {
    // 90 for days 0–9, 200 for days 10–49, then −2 a day: day 64 holds 170 = 200 × 0.85, and the
    // window ending on day 64 starts on day 35 (200). Day 63 holds 172: a 14 % decline, no trigger.
    const states = run(
      (d) => (d < 10 ? 90 : d < 50 ? 200 : 200 - 2 * (d - 49)),
      () => 10_000,
      80,
    );
    expect(firstDay(states, "holdersTrigger")).to.equal(64);
    expect(states[64]).to.include({
      holders: 170,
      holdersWindowStart: 200,
      state: "wind-down",
      stateSince: day(64),
    });
    expect(states[63]).to.include({ holders: 172, state: "normal", stateSince: null });
    expect(states.some((s) => s.bothTrigger)).to.equal(false); // volume never fired
    expect(states[9]!.holdersArmed).to.equal(false);
    expect(states[10]!.holdersArmed).to.equal(true);
  });

  it("holders: the window is today and the 29 days before (30 measurements)", () => {
    // 200 until day 29, then 170 from day 30: on day 30 the window starts on day 1 (200).
    const states = run(
      (d) => (d < 30 ? 200 : 170),
      () => 10_000,
      60,
    );
    expect(firstDay(states, "holdersTrigger")).to.equal(30);
    expect(states[28]!.holdersWindowStart).to.equal(null);
    expect(states[29]!.holdersWindowStart).to.equal(200);
    // Once the window's start is 170 too (day 59 starts on day 30), the condition clears…
    expect(states[59]!.holdersTrigger).to.equal(false);
    // …but wind-down is final.
    expect(states[59]!.state).to.equal("wind-down");
    expect(states[59]!.stateSince).to.equal(day(30));
  });

  it("holders: no trigger until holders have first exceeded 100", () => {
    const never = run(
      (d) => (d < 30 ? 100 : 50),
      () => 10_000,
      60,
    );
    expect(firstDay(never, "holdersTrigger")).to.equal(-1);
    expect(never.every((s) => s.state === "normal")).to.equal(true);
    // One day at 101 arms it (day 35, after the fall to 50 began); it fires the next day, when the
    // window ending on day 36 starts on day 7 at 100 and ends at 50.
    const armedLate = run(
      (d) => (d === 35 ? 101 : d < 30 ? 100 : 50),
      () => 10_000,
      60,
    );
    expect(firstDay(armedLate, "holdersTrigger")).to.equal(36);
  });

  it("volume: maintenance on the 30th consecutive day under $500, ending when volume recovers", () => {
    // Days 0–9 at $1,000; from day 10, $499.99 a day; day 45 back at $500 (not under the floor).
    const states = run(
      () => 50,
      (d) => (d < 10 || d === 45 ? (d === 45 ? 500 : 1000) : 499.99),
      50,
    );
    expect(firstDay(states, "volumeTrigger")).to.equal(39);
    expect(states[38]).to.include({ volumeDaysBelow: 29, state: "normal" });
    expect(states[39]).to.include({ volumeDaysBelow: 30, state: "maintenance", stateSince: day(39) });
    expect(states[44]).to.include({ state: "maintenance", stateSince: day(39) });
    expect(states[45]).to.include({ volumeDaysBelow: 0, state: "normal", stateSince: null });
    expect(states[46]!.volumeDaysBelow).to.equal(1);
  });

  it("both: each condition met inside the same 30-day window; maintenance becomes wind-down", () => {
    // Volume dries up from day 0 (maintenance from day 29); holders 300 → 255 on day 50 (−15 %).
    const states = run(
      (d) => (d < 50 ? 300 : 255),
      () => 0,
      70,
    );
    expect(states[29]).to.include({ state: "maintenance", stateSince: day(29) });
    expect(firstDay(states, "holdersTrigger")).to.equal(50);
    expect(firstDay(states, "bothTrigger")).to.equal(50);
    expect(states[50]).to.include({ state: "wind-down", stateSince: day(50) });
    // Holders stop firing on day 79 at the latest, but both stays true while day 50 is in the window.
    expect(states[69]!.bothTrigger).to.equal(true);
  });

  it("refuses a gap in the days and a negative count, naming the row", () => {
    const gap = series(
      () => 1,
      () => 1,
      3,
    );
    gap[2] = { ...gap[2]!, day: day(3) };
    expect(() => stewardshipStates(gap)).to.throw(
      InvalidInputError,
      /^measurements\[2\]\.day: must be the day after/,
    );
    const negative = series(
      () => 1,
      () => 1,
      2,
    );
    negative[1] = { ...negative[1]!, holders: -1 };
    expect(() => stewardshipStates(negative)).to.throw(InvalidInputError, "measurements[1].holders");
  });

  it("both: the window is exact at either end, for either condition", () => {
    // No volume from day 0 (volume fires from day 29 on); holders fire on day 40 alone (a one-day
    // dip to 170): both holds on day 69, whose window starts on day 40, not on day 70.
    const holdersOnce = run(
      (d) => (d === 40 ? 170 : 200),
      () => 0,
      71,
    );
    expect(holdersOnce.filter((s) => s.holdersTrigger).map((s) => s.day)).to.deep.equal([day(40)]);
    expect(holdersOnce[69]!.bothTrigger).to.equal(true);
    expect(holdersOnce[70]!.bothTrigger).to.equal(false);
    // Volume fires on day 29 alone (it recovers on day 30); holders fire from day 50 on: both holds
    // on day 58, whose window starts on day 29, not on day 59.
    const volumeOnce = run(
      (d) => (d < 50 ? 300 : 255),
      (d) => (d < 30 ? 0 : 1000),
      60,
    );
    expect(volumeOnce.filter((s) => s.volumeTrigger).map((s) => s.day)).to.deep.equal([day(29)]);
    expect(volumeOnce[58]!.bothTrigger).to.equal(true);
    expect(volumeOnce[59]!.bothTrigger).to.equal(false);
  });

  it("a state reached on the first day starts that day (rules with a one-day volume run)", () => {
    const oneDay = { ...STEWARDSHIP_V1, volumeRunDays: 1 } as unknown as StewardshipConstants;
    const [first] = stewardshipStates(
      series(
        () => 0,
        () => 0,
        1,
      ),
      oneDay,
    );
    expect(first).to.include({ state: "maintenance", stateSince: day(0) });
  });

  it("accepts zero holders and zero volume; refuses a fraction, a negative or a non-finite value", () => {
    expect(
      stewardshipStates(
        series(
          () => 0,
          () => 0,
          2,
        ),
      ).map((s) => s.state),
    ).to.deep.equal(["normal", "normal"]);
    const bad = (row: Partial<DailyMeasurement>) => () =>
      stewardshipStates([{ day: day(0), holders: 1, organicVolumeUsd: 1, ...row }]);
    for (const holders of [1.5, -1])
      expect(bad({ holders })).to.throw(
        InvalidInputError,
        /^measurements\[0\]\.holders: must be a whole number, 0 or more$/,
      );
    for (const organicVolumeUsd of [-0.01, Number.NaN, Number.POSITIVE_INFINITY])
      expect(bad({ organicVolumeUsd })).to.throw(
        InvalidInputError,
        /^measurements\[0\]\.organicVolumeUsd: must be a finite number, 0 or more$/,
      );
  });
});
