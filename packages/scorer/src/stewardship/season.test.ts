import { expect } from "chai";
import type { PoolSwap, StewardshipConfig, TokenTransfer } from "./chain-data";
import { STEWARDSHIP_V1 } from "./constants";
import { applyTransfers } from "./holders";
import { measureDay } from "./measure-day";
import { type DailyMeasurement, stewardshipStates } from "./triggers";

// A scripted 80-day token history, measured day by day and replayed through the kill rules.
//   Holders: the operator seeds 5 wallets a day at the dust line (days 0–39: 5, 10, … 200), then
//   4 wallets a day hand their tokens back (day d ≥ 40: 200 − 4(d − 39)).
//   Volume: $1,000 organic a day until day 19, then $100 a day — while wash trades of each kind
//   (a), (b), (c) add $7,000 a day that must not count.
// By hand: armed on day 20 (105 > 100). Holders fire on day 58: the window starts on day 29 at 150
// and ends at 124 (−17.3 %); on day 57 it is 145 → 128 (−11.7 %). Volume is under $500 from day
// 20, so it fires on day 49 (the 30th day). Both: day 58.

const addr = (name: string) => `0x${Buffer.from(name).toString("hex").padStart(40, "0")}`;
const POOL = addr("pool");
const OPERATOR = addr("operator");
const config: StewardshipConfig = { decimals: 18, pools: [POOL], excluded: [OPERATOR] };
const DAY = 86_400;
const DAY0 = 1_800_000_000;
const T = 10n ** 18n;
const DUST = STEWARDSHIP_V1.dustWholeTokens * T;

function scriptedSeason(days: number) {
  const transfers: TokenTransfer[] = [];
  const swaps: PoolSwap[] = [];
  let n = 0;
  const tx = () => `0x${(++n).toString(16).padStart(64, "0")}`;
  const send = (from: string, to: string, time: number, amount: bigint) =>
    transfers.push({ tx: tx(), logIndex: 0, time, from, to, amount });
  const trade = (taker: string, side: "buy" | "sell", time: number, tokens: bigint, usd: number) => {
    const id = tx();
    const [from, to] = side === "buy" ? [POOL, taker] : [taker, POOL];
    transfers.push({ tx: id, logIndex: 0, time, from, to, amount: tokens });
    swaps.push({ tx: id, logIndex: 1, time, pool: POOL, taker, side, tokens, usd });
  };
  send(addr("sam"), addr("alba"), DAY0, 1n * T);
  send(addr("sam"), addr("bea"), DAY0, 1n * T);
  for (let d = 0; d < days; d++) {
    const t = DAY0 + d * DAY;
    if (d < 40) for (let i = 0; i < 5; i++) send(OPERATOR, addr(`w${5 * d + i}`), t + 60, DUST);
    else for (let i = 0; i < 4; i++) send(addr(`w${4 * (d - 40) + i}`), OPERATOR, t + 60, DUST);
    trade(addr("grace"), "buy", t + 3600, 10n * T, d < 20 ? 1000 : 100);
    if (d < 20) continue;
    for (const hour of [2, 6, 10]) {
      trade(addr("rita"), "buy", t + hour * 3600, 100n * T, 500); // (b)
      trade(addr("rita"), "sell", t + (hour + 1) * 3600, 90n * T, 500);
    }
    trade(addr("xavier"), "buy", t + 4 * 3600, 100n * T, 1000); // (a)
    send(addr("xavier"), addr("ivan"), t + 5 * 3600, 100n * T);
    trade(addr("ivan"), "sell", t + 6 * 3600, 100n * T, 1000);
    trade(addr("alba"), "buy", t + 7 * 3600, 100n * T, 1000); // (c)
    trade(addr("bea"), "sell", t + 8 * 3600, 100n * T, 1000);
  }
  return { transfers, swaps };
}

describe("stewardship: a scripted season through the kill rules", () => {
  const days = 80;
  const { transfers, swaps } = scriptedSeason(days);
  // Each test measures the days it reads, inside the test (not while mocha loads the file), so
  // mutation testing knows which tests run the measuring code.
  const measureOn = (d: number) => {
    const asOf = DAY0 + (d + 1) * DAY;
    const balances = applyTransfers(
      new Map(),
      transfers.filter((t) => t.time < asOf),
    );
    return measureDay({ asOf, balances, transfers, swaps, config });
  };
  const dayOf = (d: number) => new Date((DAY0 + d * DAY) * 1000).toISOString().slice(0, 10);
  const holdersOn = (d: number) => measureOn(d).holders;

  it("measures the holders the script made", () => {
    expect([0, 1, 2].map(holdersOn)).to.deep.equal([5, 10, 15]);
    expect(holdersOn(39)).to.equal(200);
    expect(holdersOn(57)).to.equal(128);
    expect(holdersOn(58)).to.equal(124);
  });

  it("excludes every wash trade with its criterion and keeps only the organic $100", () => {
    for (const d of [20, 45, 79]) {
      const measured = measureOn(d);
      expect(measured.organicVolumeUsd, `day ${d}`).to.equal(100);
      expect(measured.excludedVolumeUsd, `day ${d}`).to.equal(7000);
      expect(measured.evidence.map((e) => [e.criterion, e.cluster])).to.deep.equal([
        ["a", [addr("ivan"), addr("xavier")].sort()],
        ["b", []], // rita round-trips alone: published in aggregate, her address not named
        ["c", [addr("alba"), addr("bea"), addr("sam")].sort()],
      ]);
    }
    expect(measureOn(19).organicVolumeUsd).to.equal(1000);
  });

  it("fires each trigger on exactly the day the rules say", () => {
    const series: DailyMeasurement[] = Array.from({ length: days }, (_, d) => {
      const m = measureOn(d);
      return { day: dayOf(d), holders: m.holders, organicVolumeUsd: m.organicVolumeUsd };
    });
    const states = stewardshipStates(series);
    const first = (flag: "holdersTrigger" | "volumeTrigger" | "bothTrigger") =>
      states.findIndex((s) => s[flag]);
    expect(states.findIndex((s) => s.holdersArmed)).to.equal(20);
    expect(first("volumeTrigger")).to.equal(49);
    expect(first("holdersTrigger")).to.equal(58);
    expect(first("bothTrigger")).to.equal(58);
    expect(states[48]!.state).to.equal("normal");
    expect(states[49]).to.include({ state: "maintenance", stateSince: series[49]!.day });
    expect(states[57]).to.include({ state: "maintenance" });
    expect(states[58]).to.include({ state: "wind-down", stateSince: series[58]!.day });
    expect(states[79]).to.include({ state: "wind-down", stateSince: series[58]!.day });
  });
});
