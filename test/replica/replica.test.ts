import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import { parseUnits } from "ethers";
import { DEFAULT_STOCKS, priceOf } from "../../scripts/replica/stocks";
import {
  announceReplicaMode,
  buildReplica,
  deployReplica,
  tickCumulativeDelta,
  twapTick,
  PRICE_ONE,
  type Replica,
  type ReplicaStock,
} from "../shared/replica";

/** Reads the pool's accumulator at each of `timestamps` (all in the past or now) in one observe call. */
async function observeAt(stock: ReplicaStock, timestamps: readonly number[]): Promise<bigint[]> {
  const now = await time.latest();
  const { tickCumulatives } = await stock.pool.observe(timestamps.map((t) => now - t));
  return [...tickCumulatives];
}

/** Two observation slots, four hours of trading, one stock: too short to look three hours back. */
function shortBuffer(): Promise<Replica> {
  return buildReplica({ observationCardinality: 2, hours: 4, stocks: DEFAULT_STOCKS.slice(0, 1) });
}

/** USDG with 18 decimals, as some sources give it (others 6): two stocks, one per token order, two hours. */
function usdg18(): Promise<Replica> {
  return buildReplica({ usdgDecimals: 18, hours: 2, stocks: DEFAULT_STOCKS.slice(0, 2) });
}

/** Raw shares worth `usdg` raw USDG at the spot price. */
async function sharesWorth(replica: Replica, stock: ReplicaStock, usdg: bigint): Promise<bigint> {
  const price = await replica.priceUsdgPerShare(stock);
  return (usdg * 10n ** BigInt(stock.decimals) * PRICE_ONE) / (price * 10n ** BigInt(replica.usdgDecimals));
}

describe("replica: Robinhood Chain trading surface", function () {
  let replica: Replica;

  before(announceReplicaMode);

  beforeEach(async function () {
    replica = await loadFixture(deployReplica);
  });

  it("builds in a few seconds (printed, not asserted)", function () {
    console.log(`      replica build: ${replica.buildMs} ms (${replica.mode}, chain ${replica.chainId})`);
    expect(replica.buildMs).to.be.greaterThan(0);
  });

  it("lists at least three stocks with pools in both token orders", async function () {
    expect(replica.stocks.length).to.be.at.least(3);
    const usdg = (await replica.usdg.getAddress()).toLowerCase();
    for (const s of replica.stocks) {
      const [token0, token1] = await Promise.all([s.pool.token0(), s.pool.token1()]);
      const pair = [token0.toLowerCase(), token1.toLowerCase()];
      expect(pair).to.include(usdg);
      expect(pair).to.include(s.address.toLowerCase());
      expect(s.usdgIsToken0).to.equal(token0.toLowerCase() === usdg);
      expect(await replica.factory.getPool(token0, token1, s.fee)).to.equal(s.poolAddress);
    }
    if (replica.mode === "replica") {
      // Both orders, so every consumer of the pools is tested both ways (on Robinhood Chain USDG sorts low).
      const orders = new Set(replica.stocks.map((s) => s.usdgIsToken0));
      expect([...orders].sort()).to.deep.equal([false, true]);
    }
  });

  it("reads decimals from the tokens (USDG 6, stocks 18)", async function () {
    expect(replica.usdgDecimals).to.equal(Number(await replica.usdg.decimals()));
    for (const s of replica.stocks) {
      expect(s.decimals).to.equal(Number(await s.token.decimals()));
      expect(s.shape).to.deep.equal({
        usdgIsToken0: s.usdgIsToken0,
        usdgDecimals: replica.usdgDecimals,
        stockDecimals: s.decimals,
      });
      if (replica.mode === "replica") expect([replica.usdgDecimals, s.decimals]).to.deep.equal([6, 18]);
    }
  });

  it("prices every stock at a realistic 100-900 USDG per share", async function () {
    for (const s of replica.stocks) {
      const price = await replica.priceUsdgPerShare(s);
      // A fork lists whatever trades there; a positive price is all that can be asked of it.
      if (replica.mode === "replica") expect(price).to.be.within(100n * 10n ** 18n, 900n * 10n ** 18n);
      else expect(price).to.be.greaterThan(0n);
    }
  });

  it("holds days of observations and an hourly history", async function () {
    if (replica.mode === "fork") {
      for (const s of replica.stocks)
        expect((await s.pool.slot0()).observationCardinality).to.be.greaterThan(1n);
      return;
    }
    for (const s of replica.stocks) {
      const slot0 = await s.pool.slot0();
      expect(slot0.observationCardinality).to.be.at.least(720n);
      const history = await replica.history(s);
      expect(history.length).to.be.at.least(49);
      const span = history[history.length - 1]!.timestamp - history[0]!.timestamp;
      expect(span).to.be.at.least(47 * 3600);
      // The history's ticks are the pool's: the last one is the current tick.
      expect(history[history.length - 1]!.tick).to.equal(Number(slot0.tick));
    }
  });

  it("observe() matches the swaps: cumulative difference = sum of tick x seconds held", async function () {
    // A few more swaps at known moments, so the check has data on a fork too (where the history starts now).
    let at = (await time.latest()) + 90;
    for (const s of replica.stocks) {
      for (const side of ["buy", "sell", "buy"] as const) {
        const usdg = 5_000n * 10n ** BigInt(replica.usdgDecimals);
        const amount = side === "buy" ? usdg : await sharesWorth(replica, s, usdg);
        await replica.swap(s, side, amount, { at });
        at += 600;
      }
    }
    await time.increase(300);
    for (const s of replica.stocks) {
      const history = await replica.history(s);
      const first = history[0]!.timestamp;
      const now = await time.latest();
      // Every swap moment, the mid-point between swaps and now.
      const points = [
        ...history.map((e) => e.timestamp),
        ...history.slice(1).map((e, i) => Math.floor((e.timestamp + history[i]!.timestamp) / 2)),
        now,
      ].sort((a, b) => a - b);
      const observed = await observeAt(s, points);
      for (let i = 1; i < points.length; i++) {
        expect(observed[i]! - observed[i - 1]!).to.equal(
          tickCumulativeDelta(history, points[i - 1]!, points[i]!),
          `${s.symbol} between ${points[i - 1]} and ${points[i]}`,
        );
      }
      if (replica.mode === "replica") {
        // The accumulator starts at zero when the pool is initialized.
        expect(observed[observed.length - 1]).to.equal(tickCumulativeDelta(history, first, now));
      }
    }
  });

  it("a 300 s TWAP tick from observe() equals the model's", async function () {
    for (const s of replica.stocks) {
      await replica.swap(s, "buy", 2_000n * 10n ** BigInt(replica.usdgDecimals));
      await time.increase(600);
      await replica.swap(
        s,
        "sell",
        await sharesWorth(replica, s, 3_000n * 10n ** BigInt(replica.usdgDecimals)),
      );
      await time.increase(600);
      const history = await replica.history(s);
      const end = history[history.length - 1]!.timestamp + 120; // straddles the sell
      const [start, stop] = await observeAt(s, [end - 300, end]);
      const delta = stop! - start!;
      const floor = delta / 300n - (delta < 0n && delta % 300n !== 0n ? 1n : 0n);
      expect(Number(floor)).to.equal(twapTick(history, end, 300));
    }
  });

  for (const [label, usdgIsToken0] of [
    ["USDG is token0", true],
    ["USDG is token1", false],
  ] as const) {
    it(`a buy raises and a sell lowers the USDG price when ${label}`, async function () {
      const s = replica.stocks.find((x) => x.usdgIsToken0 === usdgIsToken0);
      if (s === undefined) {
        // Only a fork may lack an order (Robinhood Chain's USDG sorts low): then every pool has the other.
        expect(replica.mode).to.equal("fork");
        expect(replica.stocks.every((x) => x.usdgIsToken0 !== usdgIsToken0)).to.equal(true);
        return;
      }
      const p0 = await replica.priceUsdgPerShare(s);
      const tick0 = Number((await s.pool.slot0()).tick);
      const paid = 25_000n * 10n ** BigInt(replica.usdgDecimals);
      const bought = await replica.swap(s, "buy", paid);
      const p1 = await replica.priceUsdgPerShare(s);
      expect(p1).to.be.greaterThan(p0);
      expect(bought.amountOut).to.be.greaterThan(0n);
      // Uniswap's tick prices token1 in token0: buying shares moves it down when USDG is token0.
      expect(usdgIsToken0 ? bought.tick < tick0 : bought.tick > tick0).to.equal(true);
      const sold = await replica.swap(s, "sell", bought.amountOut);
      const p2 = await replica.priceUsdgPerShare(s);
      expect(p2).to.be.lessThan(p1);
      // Round trip through the fee: the seller gets back less USDG than the buyer paid.
      expect(sold.amountOut).to.be.lessThan(paid);
    });
  }

  it("funds and swaps for any signer, again after a snapshot revert undid its approval", async function () {
    const [, , , , , agent] = await ethers.getSigners();
    const s = replica.stocks[replica.stocks.length - 1]!;
    const usdg = 2_000n * 10n ** BigInt(replica.usdgDecimals);
    const first = await replica.swap(s, "buy", usdg, { from: agent! });
    expect(await s.token.balanceOf(agent!.address)).to.equal(first.amountOut);
    await loadFixture(deployReplica);
    expect(await s.token.balanceOf(agent!.address)).to.equal(0n);
    const again = await replica.swap(s, "buy", usdg, { from: agent! });
    expect(again.amountOut).to.equal(first.amountOut); // same state, same trade
    await replica.fund(agent!.address, "USDG", 7n);
    expect(await replica.usdg.balanceOf(agent!.address)).to.equal(7n);
  });

  it("a custom build with a short buffer cannot observe past it (the pool reverts 'OLD')", async function () {
    if (replica.mode === "fork") {
      expect(replica.stocks.length).to.be.greaterThan(0); // custom builds are a replica-only tool
      return;
    }
    const small = await loadFixture(shortBuffer);
    const s = small.stocks[0]!;
    expect((await s.pool.slot0()).observationCardinality).to.equal(2n);
    await s.pool.observe([1800]); // within the two latest observations: fine
    await expect(s.pool.observe([3 * 3600])).to.be.revertedWith("OLD");
  });

  it("builds with an 18-decimal USDG as well: decimals read on chain, listed prices, trades in both orders", async function () {
    if (replica.mode === "fork") {
      expect(replica.usdgDecimals).to.equal(Number(await replica.usdg.decimals())); // custom builds: replica only
      return;
    }
    const wide = await loadFixture(usdg18);
    expect(wide.usdgDecimals).to.equal(18);
    expect(wide.stocks.map((s) => s.usdgIsToken0)).to.deep.equal([true, false]);
    for (const s of wide.stocks) {
      expect(s.shape.usdgDecimals).to.equal(18);
      const listed = priceOf(DEFAULT_STOCKS.find((x) => x.symbol === s.symbol)!);
      const spot = await wide.priceUsdgPerShare(s);
      // Two hours of trading of up to 40,000 USDG against 5,000,000 a side: within a few percent.
      expect(spot).to.be.within((listed * 95n) / 100n, (listed * 105n) / 100n);
      const bought = await wide.swap(s, "buy", parseUnits("10000", 18));
      expect(await wide.priceUsdgPerShare(s)).to.be.greaterThan(spot);
      // 10,000 USDG buys about 10,000 / price shares (fee and impact under 2 %).
      const expected = (parseUnits("10000", 18) * PRICE_ONE) / spot;
      expect(bought.amountOut).to.be.within((expected * 98n) / 100n, expected);
    }
  });

  it("history forgets swaps a snapshot revert undid", async function () {
    const s = replica.stocks[0]!;
    const before = (await replica.history(s)).length;
    await replica.swap(s, "buy", 1_000n * 10n ** BigInt(replica.usdgDecimals));
    expect((await replica.history(s)).length).to.equal(before + 1);
    await loadFixture(deployReplica);
    expect((await replica.history(s)).length).to.equal(before);
  });
});
