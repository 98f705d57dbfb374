import { expect } from "chai";
import { InvalidInputError } from "../errors";
import fc from "fast-check";
import type { FundingTransfer, PoolSwap, StewardshipConfig, TokenTransfer } from "./chain-data";
import { chainOrder, swapId } from "./chain-data";
import { STEWARDSHIP_V1 } from "./constants";
import { distinctHolders } from "./holders";
import { aggregateSingles, measureDay } from "./measure-day";

const addr = (name: string) => `0x${Buffer.from(name).toString("hex").padStart(40, "0")}`;
const POOL = addr("pool");
const OPERATOR = addr("operator");
const config: StewardshipConfig = { decimals: 18, pools: [POOL], excluded: [OPERATOR] };
const HOUR = 3600;
const DAY0 = 1_800_000_000; // the season starts; the measured day is day 29
const asOf = DAY0 + 30 * 86_400;
const at = (day: number, hour: number) => DAY0 + day * 86_400 + hour * HOUR;
const T = 10n ** 18n; // one whole token

/** A scripted history: each helper appends the swap and the token transfer it implies. */
function history() {
  const swaps: PoolSwap[] = [];
  const transfers: TokenTransfer[] = [];
  let n = 0;
  const tx = () => `0x${(++n).toString(16).padStart(64, "0")}`;
  return {
    swaps,
    transfers,
    buy(taker: string, time: number, tokens: bigint, usd: number) {
      const id = tx();
      transfers.push({ tx: id, logIndex: 0, time, from: POOL, to: addr(taker), amount: tokens });
      swaps.push({ tx: id, logIndex: 1, time, pool: POOL, taker: addr(taker), side: "buy", tokens, usd });
    },
    sell(taker: string, time: number, tokens: bigint, usd: number) {
      const id = tx();
      transfers.push({ tx: id, logIndex: 0, time, from: addr(taker), to: POOL, amount: tokens });
      swaps.push({ tx: id, logIndex: 1, time, pool: POOL, taker: addr(taker), side: "sell", tokens, usd });
    },
    send(from: string, to: string, time: number, tokens: bigint) {
      transfers.push({ tx: tx(), logIndex: 0, time, from: addr(from), to: addr(to), amount: tokens });
    },
  };
}

function scriptedDay() {
  const h = history();
  // Organic trades.
  h.buy("grace", at(29, 1), 1000n * T, 1);
  h.sell("henry", at(29, 2), 300n * T, 2);
  // (b) round trips ×3 by "rita"; "rob" returns only 79 %; "ruth" round-trips twice.
  for (const hour of [1, 5, 9]) {
    h.buy("rita", at(29, hour), 1000n * T, 4);
    h.sell("rita", at(29, hour + 1), 800n * T, 8);
    h.buy("rob", at(29, hour), 1000n * T, 16);
    h.sell("rob", at(29, hour + 1), 790n * T, 32);
  }
  for (const hour of [1, 5]) {
    h.buy("ruth", at(29, hour), 1000n * T, 64);
    h.sell("ruth", at(29, hour + 1), 1000n * T, 128);
  }
  // (a) xavier buys, passes the tokens to ivan, who sells within 24 h; "xena" → "iris" takes 26 h.
  h.buy("xavier", at(29, 2), 500n * T, 256);
  h.send("xavier", "ivan", at(29, 3), 500n * T);
  h.sell("ivan", at(29, 4), 500n * T, 512);
  h.buy("xena", at(28, 10), 500n * T, 1024); // the day before: not in today's volume either way
  h.send("xena", "iris", at(28, 11), 500n * T);
  h.sell("iris", at(29, 12), 500n * T, 2048);
  // (c) "sam" funds "alba" and "bea": alba buys 1,000, bea sells 900: net 100 of 1,900 (5 %).
  h.send("sam", "alba", at(3, 0), 1n * T);
  h.send("sam", "bea", at(3, 0), 900n * T);
  h.buy("alba", at(29, 6), 1000n * T, 4096);
  h.sell("bea", at(29, 7), 900n * T, 8192);
  // "seth" funds "cleo" and "dina": 1,000 bought, 500 sold: net 500 of 1,500 (33 %), organic.
  h.send("seth", "cleo", at(3, 0), 1n * T);
  h.send("seth", "dina", at(3, 0), 500n * T);
  h.buy("cleo", at(29, 6), 1000n * T, 16384);
  h.sell("dina", at(29, 7), 500n * T, 32768);
  // The operator's own trades never count.
  h.buy("operator", at(29, 3), 1n * T, 65536);
  return h;
}

describe("stewardship: measureDay on a scripted history", () => {
  const h = scriptedDay();
  // Measured inside each test, not while mocha loads the file: mutation testing then knows which
  // tests run measureDay's code (code run at load makes every mutant there rerun every test).
  const measured = () =>
    measureDay({ asOf, balances: new Map(), transfers: h.transfers, swaps: h.swaps, config });

  it("finds each excluded-volume cluster with the right criterion, and only those", () => {
    const found = measured().evidence.map((e) => [e.criterion, e.cluster]);
    expect(found).to.deep.equal([
      ["a", [addr("ivan"), addr("xavier")].sort()],
      ["b", []], // rita round-trips alone: published in aggregate, her address not named
      ["c", [addr("alba"), addr("bea"), addr("sam")].sort()],
    ]);
  });

  it("publishes the numbers each criterion compared", () => {
    const [a, b, c] = measured().evidence;
    expect(a!.measures).to.deep.equal({ trades: 1 });
    expect(a!.volumeUsd).to.equal(256 + 512);
    expect(b!.measures).to.deep.equal({ wallets: 1, buys: 3, round_trips: 3 });
    expect(b!.swaps).to.have.length(6);
    expect(b!.volumeUsd).to.equal(3 * (4 + 8));
    expect(c!.measures).to.deep.equal({
      source: addr("sam"),
      bought: (1000n * T).toString(),
      sold: (900n * T).toString(),
      net: (100n * T).toString(),
      gross: (1900n * T).toString(),
    });
  });

  it("counts as organic every other swap of the day by a non-excluded taker", () => {
    const result = measured();
    const organic = 1 + 2 + 3 * (16 + 32) + 2 * (64 + 128) + 2048 + 16384 + 32768;
    expect(result.organicVolumeUsd).to.equal(organic);
    expect(result.excludedVolumeUsd).to.equal(256 + 512 + 3 * (4 + 8) + 4096 + 8192);
  });

  it("is the same whatever order the logs arrive in", () => {
    const shuffled = measureDay({
      asOf,
      balances: new Map(),
      transfers: [...h.transfers].reverse(),
      swaps: [...h.swaps].reverse(),
      config,
    });
    expect(shuffled).to.deep.equal(measured());
  });

  it("refuses a malformed log, naming it", () => {
    const bad = { ...h.swaps[0]!, side: "long" as "buy" };
    expect(() => measureDay({ asOf, balances: new Map(), transfers: [], swaps: [bad], config })).to.throw(
      InvalidInputError,
      'swaps[0].side: must be "buy" or "sell"',
    );
  });
});

describe("stewardship: never as an accusation against an individual address", () => {
  it("publishes lone round-trippers in one aggregate that names no address, their volume still excluded", () => {
    const h = history();
    for (const name of ["rita", "rhea"])
      for (const hour of [1, 5, 9]) {
        h.buy(name, at(29, hour), 1000n * T, 4);
        h.sell(name, at(29, hour + 1), 900n * T, 8);
      }
    const day = measureDay({ asOf, balances: new Map(), transfers: h.transfers, swaps: h.swaps, config });
    expect(day.evidence).to.have.length(1);
    const [aggregate] = day.evidence;
    expect(aggregate!.criterion).to.equal("b");
    expect(aggregate!.cluster).to.deep.equal([]);
    expect(aggregate!.measures).to.deep.equal({ wallets: 2, buys: 6, round_trips: 6 });
    expect(aggregate!.swaps).to.deep.equal([...h.swaps].sort(chainOrder).map(swapId)); // all 12, chain order
    expect(day.excludedVolumeUsd).to.equal(6 * (4 + 8));
    expect(day.organicVolumeUsd).to.equal(0);
    // A transfer between them before the 30-day window does not link them.
    h.send("rita", "rhea", asOf - 30 * 86_400 - 1, 1n * T);
    const before = measureDay({ asOf, balances: new Map(), transfers: h.transfers, swaps: h.swaps, config });
    expect(before.evidence.map((e) => e.cluster)).to.deep.equal([[]]);
    // Two round-trippers who pass tokens between them are a cluster of two: named as one.
    h.send("rita", "rhea", at(2, 0), 1n * T);
    const linked = measureDay({ asOf, balances: new Map(), transfers: h.transfers, swaps: h.swaps, config });
    expect(linked.evidence.map((e) => e.cluster)).to.deep.equal([[addr("rhea"), addr("rita")].sort()]);
  });

  it("no published evidence names exactly one address, whatever the trading (property)", () => {
    const names = ["ana", "ben", "cy", "dot", "eve"];
    const trade = fc.record({
      taker: fc.constantFrom(...names),
      side: fc.constantFrom("buy" as const, "sell" as const),
      hour: fc.integer({ min: 0, max: 23 }),
      tokens: fc.bigInt({ min: 1n, max: 2000n }),
    });
    const gift = fc.record({ from: fc.constantFrom(...names, "sam"), to: fc.constantFrom(...names) });
    fc.assert(
      fc.property(fc.array(trade, { maxLength: 40 }), fc.array(gift, { maxLength: 4 }), (trades, gifts) => {
        const h = history();
        for (const g of gifts) h.send(g.from, g.to, at(1, 0), 1n * T);
        for (const t of trades) h[t.side](t.taker, at(29, t.hour), t.tokens * T, 1);
        const day = measureDay({ asOf, balances: new Map(), transfers: h.transfers, swaps: h.swaps, config });
        for (const e of day.evidence) expect(e.cluster.length).to.not.equal(1);
        const named = new Set(day.evidence.flatMap((e) => e.swaps));
        expect(day.excludedVolumeUsd).to.equal(
          h.swaps.filter((s) => named.has(`${s.tx}:${s.logIndex}`)).length,
        );
      }),
    );
  });
});

describe("stewardship: the edges of the windows", () => {
  const from = asOf - 30 * 86_400; // the first second of the 30-day window
  const DAY = 86_400;

  it("swaps count from the window's first second to the one before asOf; funding only before asOf", () => {
    const h = history();
    // sam funds alba and bea long before the window; zed funds them later (not their source).
    h.send("sam", "alba", from - 10, 1n * T);
    h.send("sam", "bea", from - 10, 1n * T);
    h.send("zed", "alba", at(1, 0), 1n * T);
    h.send("zed", "bea", at(1, 0), 1n * T);
    h.buy("alba", from - 1, 5000n * T, 1); // before the window
    h.buy("alba", from, 900n * T, 2); // its first second
    h.sell("bea", asOf - DAY, 1000n * T, 4); // the first second of the day measured
    h.sell("bea", asOf, 7000n * T, 8); // the next day
    // cora and dora are funded only at asOf, in the token and in ETH: no source yet.
    h.send("late", "cora", asOf, 1n * T);
    h.send("late", "dora", asOf, 1n * T);
    const funding: FundingTransfer[] = ["cora", "dora"].map((to, i) => ({
      asset: "eth",
      tx: `0x${(0xf100 + i).toString(16).padStart(64, "0")}`,
      logIndex: -1,
      time: asOf,
      from: addr("sid"),
      to: addr(to),
      amount: 1n,
    }));
    h.buy("cora", at(29, 6), 1000n * T, 16);
    h.sell("dora", at(29, 7), 950n * T, 32);
    const input = { asOf, balances: new Map(), swaps: h.swaps, config, funding };
    const day = measureDay({ ...input, transfers: h.transfers });
    expect(day.evidence.map((e) => [e.criterion, e.cluster, e.measures])).to.deep.equal([
      [
        "c",
        [addr("alba"), addr("bea"), addr("sam")].sort(),
        {
          source: addr("sam"),
          bought: (900n * T).toString(),
          sold: (1000n * T).toString(),
          net: (100n * T).toString(),
          gross: (1900n * T).toString(),
        },
      ],
    ]);
    expect(day.excludedVolumeUsd).to.equal(4);
    expect(day.organicVolumeUsd).to.equal(16 + 32);
    // The first funding is the first in chain order, whatever order the transfers arrive in.
    expect(measureDay({ ...input, transfers: [...h.transfers].reverse() })).to.deep.equal(day);
  });
});

describe("stewardship: aggregateSingles", () => {
  it("sums only the numeric measures of the single wallets", () => {
    const s: PoolSwap = {
      tx: `0x${"ab".repeat(32)}`,
      logIndex: 0,
      time: 1,
      pool: POOL,
      taker: addr("x"),
      side: "buy",
      tokens: 1n,
      usd: 3,
    };
    const single = { criterion: "a" as const, cluster: [addr("x")], swaps: [swapId(s)], volumeUsd: 3 };
    expect(
      aggregateSingles([{ ...single, measures: { trades: 2, note: "x" } }], new Map([[swapId(s), s]])),
    ).to.deep.equal([{ ...single, cluster: [], measures: { wallets: 1, trades: 2 } }]);
  });
});

describe("stewardship (c): a cluster funded from one source, in ETH or USDG", () => {
  const USDG = addr("usdg");
  let n = 0;
  const fund = (asset: string, from: string, to: string, time: number, amount = 1n): FundingTransfer => ({
    asset,
    tx: `0x${(0xf000 + ++n).toString(16).padStart(64, "0")}`,
    logIndex: asset === "eth" ? -1 : 0,
    time,
    from: addr(from),
    to: addr(to),
    amount,
  });
  function washers() {
    const h = history();
    h.buy("cora", at(29, 6), 1000n * T, 100);
    h.sell("dora", at(29, 7), 950n * T, 95);
    return h;
  }

  it("traces funding through native ETH and USDG as well as the token", () => {
    const h = washers();
    const alone = measureDay({ asOf, balances: new Map(), transfers: h.transfers, swaps: h.swaps, config });
    expect(alone.evidence).to.deep.equal([]); // funded through nothing the token shows
    for (const funding of [
      [fund("eth", "sid", "cora", at(2, 0)), fund("eth", "sid", "dora", at(2, 1))],
      [fund("eth", "sid", "cora", at(2, 0)), fund(USDG, "sid", "dora", at(2, 1), 5_000_000n)],
    ]) {
      const day = measureDay({ ...{ asOf, balances: new Map(), config }, ...h, funding });
      expect(day.evidence.map((e) => [e.criterion, e.cluster, e.measures.source])).to.deep.equal([
        ["c", [addr("cora"), addr("dora"), addr("sid")].sort(), addr("sid")],
      ]);
      expect(day.excludedVolumeUsd).to.equal(195);
    }
  });

  it("a transfer of nothing funds nothing, and the first funding of any asset is the source", () => {
    const h = washers();
    const funding = [
      fund(USDG, "mallory", "cora", at(1, 0), 0n), // anyone can send anyone a zero transfer
      fund(USDG, "mallory", "dora", at(1, 0), 0n),
      fund("eth", "sid", "cora", at(2, 0)),
      fund("eth", "sid", "dora", at(2, 0)),
      fund(USDG, "mallory", "cora", at(3, 0), 10n), // later than sid's: not the source
      fund(USDG, "mallory", "dora", at(3, 0), 10n),
    ];
    const day = measureDay({
      asOf,
      balances: new Map(),
      transfers: h.transfers,
      swaps: h.swaps,
      config,
      funding,
    });
    expect(day.evidence.map((e) => e.measures.source)).to.deep.equal([addr("sid")]);
  });

  it("refuses a malformed funding transfer, naming it", () => {
    const bad = { ...fund("eth", "sid", "cora", at(2, 0)), asset: "ETH" };
    expect(() =>
      measureDay({ asOf, balances: new Map(), transfers: [], swaps: [], config, funding: [bad] }),
    ).to.throw(InvalidInputError, 'funding[0].asset: must be "eth" or a lowercase 0x address');
  });
});

describe("stewardship: distinct holders", () => {
  it("counts non-excluded, non-dust addresses; pools and burns are not holders", () => {
    const dust = STEWARDSHIP_V1.dustWholeTokens * T;
    const balances = new Map<string, bigint>([
      [addr("at-the-line"), dust],
      [addr("just-below"), dust - 1n],
      [addr("whale"), 1000n * dust],
      [OPERATOR, 1000n * dust],
      [POOL, 1000n * dust],
      [STEWARDSHIP_V1.burnAddresses[1], 1000n * dust],
    ]);
    expect(distinctHolders(balances, config)).to.equal(2);
  });
});
