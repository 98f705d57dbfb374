import { expect } from "chai";
import fc from "fast-check";
import { deriveSnapshot, markOf, pooledShare, usdgValue, type SnapshotReadings } from "./snapshot";

const USDG = "0x0000000000000000000000000000000000000001";
const TSLA = "0x00000000000000000000000000000000000000aa";
const AAPL = "0x00000000000000000000000000000000000000bb";
const E18 = 10n ** 18n;

describe("augur-snapshot/v2 derivation", () => {
  it("values 2.5 TSLA at 180 USDG plus 550 USDG cash: NAV 1,000 USDG, 45 % invested", () => {
    const readings: SnapshotReadings = {
      usdg: { token: USDG, decimals: 6, balance: 550_000_000n },
      holdings: [{ token: TSLA, decimals: 18, balance: (5n * E18) / 2n, price: 180n * E18 }],
      flows: [],
    };
    expect(deriveSnapshot(readings)).to.deep.equal({
      nav: 1_000_000_000n,
      stockValue: 450_000_000n,
      flow: 0n,
      investedBps: 4500,
      values: [450_000_000n],
    });
  });

  it("rounds each conversion toward zero, for inflows and outflows alike", () => {
    // 1 wei of a token at 180 USDG is 1.8e-16 USDG: 0 base units either way.
    expect(usdgValue(1n, 18, 180n * E18, 6)).to.equal(0n);
    expect(usdgValue(-1n, 18, 180n * E18, 6)).to.equal(0n);
    // 1/3 of a whole token at 1 USDG = 333,333.33… base units → 333,333
    expect(usdgValue(E18 / 3n, 18, E18, 6)).to.equal(333_333n);
    expect(usdgValue(-(E18 / 3n), 18, E18, 6)).to.equal(-333_333n);
    // decimals are read, never assumed: 8-decimal token
    expect(usdgValue(150_000_000n, 8, 2n * E18, 6)).to.equal(3_000_000n);
  });

  it("reads USDG's decimals, never assumes them: the same wallet with an 18-decimal USDG has the same NAV in USDG", () => {
    const E12 = 10n ** 12n;
    const readings = (decimals: number, unit: bigint): SnapshotReadings => ({
      usdg: { token: USDG, decimals, balance: 550n * unit },
      holdings: [{ token: TSLA, decimals: 18, balance: (5n * E18) / 2n, price: 180n * E18 }],
      flows: [
        { token: USDG, amount: 50n * unit },
        { token: TSLA, amount: E18 / 2n },
      ],
    });
    const six = deriveSnapshot(readings(6, 10n ** 6n));
    const eighteen = deriveSnapshot(readings(18, E18));
    expect(six).to.include({ nav: 1_000_000_000n, flow: 140_000_000n, investedBps: 4500 });
    expect(eighteen).to.deep.equal({
      nav: six.nav * E12,
      stockValue: six.stockValue * E12,
      flow: six.flow * E12,
      investedBps: six.investedBps,
      values: six.values.map((v) => v * E12),
    });
    // 1 wei of USDG-18 is below USDG-6's base unit: kept at 18 decimals, gone at 6.
    expect(usdgValue(1n, 18, 180n * E18, 18)).to.equal(180n);
    expect(usdgValue(1n, 18, 180n * E18, 6)).to.equal(0n);
  });

  it("property: a mark in 18-decimal USDG, cut to 6 decimals, is the mark in 6-decimal USDG", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
        fc.constantFrom(0, 6, 8, 18),
        fc.bigInt({ min: 0n, max: 10n ** 24n }),
        (amount, decimals, price) => {
          const at18 = usdgValue(amount, decimals, price, 18);
          expect(at18 / 10n ** 12n).to.equal(usdgValue(amount, decimals, price, 6));
        },
      ),
    );
  });

  it("counts USDG transfers at face value and stock transfers at the holding's oracle price", () => {
    const readings: SnapshotReadings = {
      usdg: { token: USDG, decimals: 6, balance: 100_000_000n },
      holdings: [{ token: TSLA, decimals: 18, balance: 2n * E18, price: 200n * E18 }],
      flows: [
        { token: USDG, amount: 50_000_000n },
        { token: TSLA, amount: E18 },
        { token: USDG, amount: -20_000_000n },
      ],
    };
    expect(deriveSnapshot(readings).flow).to.equal(50_000_000n + 200_000_000n - 20_000_000n);
  });

  it("refuses a transfer of a token it has no price for", () => {
    const readings: SnapshotReadings = {
      usdg: { token: USDG, decimals: 6, balance: 0n },
      holdings: [],
      flows: [{ token: AAPL, amount: 1n }],
    };
    expect(() => deriveSnapshot(readings)).to.throw(RangeError, AAPL);
  });

  it("marks a holding at no more than its sell quote, and never above its oracle value", () => {
    const h = { token: TSLA, decimals: 18, balance: 10n * E18, price: 180n * E18 };
    expect(markOf(h, 6)).to.equal(1_800_000_000n);
    expect(markOf({ ...h, sellQuote: 1_500_000_000n }, 6)).to.equal(1_500_000_000n);
    expect(markOf({ ...h, sellQuote: 2_500_000_000n }, 6)).to.equal(1_800_000_000n);
  });

  it("caps a holding at its pro-rata share of the pool's aggregate quote; a lone holder's share is its own quote", () => {
    const h = { token: TSLA, decimals: 18, balance: 10n * E18, price: 180n * E18, sellQuote: 1_500_000_000n };
    // Two holders of 10 and 20 TSLA: selling all 30 fetches 4,000 USDG, so 10 are worth 1,333.333333.
    expect(markOf({ ...h, pooled: { balance: 30n * E18, sellQuote: 4_000_000_000n } }, 6)).to.equal(
      1_333_333_333n,
    );
    expect(markOf({ ...h, pooled: { balance: 10n * E18, sellQuote: 1_500_000_000n } }, 6)).to.equal(
      markOf(h, 6),
    );
    expect(pooledShare(0n, { balance: 0n, sellQuote: 0n })).to.equal(0n);
    expect(() => pooledShare(11n, { balance: 10n, sellQuote: 5n })).to.throw(RangeError, "pooled total 10");
  });

  it("property: the pooled shares of one pool never add up to more than its quote, short of it by under a unit a holder", () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 0n, max: 10n ** 30n }), { minLength: 1, maxLength: 6 }),
        fc.bigInt({ min: 0n, max: 10n ** 24n }),
        (balances, quote) => {
          const pooled = { balance: balances.reduce((a, b) => a + b, 0n), sellQuote: quote };
          if (pooled.balance === 0n) return; // nothing to sell: every share is 0
          const shares = balances.map((b) => pooledShare(b, pooled));
          const unassigned = quote - shares.reduce((a, b) => a + b, 0n);
          // each share rounds down once: at most one base unit per holder stays unassigned
          expect(unassigned >= 0n && unassigned < BigInt(balances.length), `${unassigned}`).to.equal(true);
          if (balances.length === 1) expect(shares[0]).to.equal(pooled.balance === 0n ? 0n : quote);
        },
      ),
    );
  });

  it("an empty wallet is worth nothing and 0 % invested", () => {
    expect(
      deriveSnapshot({ usdg: { token: USDG, decimals: 6, balance: 0n }, holdings: [], flows: [] }),
    ).to.include({
      nav: 0n,
      investedBps: 0,
    });
  });

  it("property: NAV = cash + marks, invested in [0, 10,000], a deposit of cash moves NAV and flow by the same amount", () => {
    const holding = fc.record({
      token: fc.constantFrom(TSLA, AAPL),
      decimals: fc.constantFrom(6, 8, 18),
      balance: fc.bigInt({ min: 0n, max: 10n ** 30n }),
      price: fc.bigInt({ min: 0n, max: 10n ** 24n }),
    });
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        fc.uniqueArray(holding, { selector: (h) => h.token, maxLength: 2 }),
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        (cash, holdings, deposit) => {
          const before = deriveSnapshot({
            usdg: { token: USDG, decimals: 6, balance: cash },
            holdings,
            flows: [],
          });
          expect(before.nav).to.equal(cash + before.values.reduce((a, b) => a + b, 0n));
          expect(before.investedBps).to.be.within(0, 10_000);
          const after = deriveSnapshot({
            usdg: { token: USDG, decimals: 6, balance: cash + deposit },
            holdings,
            flows: [{ token: USDG, amount: deposit }],
          });
          expect(after.nav - before.nav).to.equal(after.flow);
        },
      ),
    );
  });
});
