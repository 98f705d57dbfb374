import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import type { Contract } from "ethers";
import {
  IUniswapV3Pool__factory,
  type PriceOracle,
  type TwapMathHarness,
  type UniswapOracleHarness,
} from "../typechain-types";
import { snapshotEstimatedGas } from "./shared/gas";
import {
  announceReplicaMode,
  buildReplica,
  replicaOnce,
  twapTick,
  type Replica,
  type ReplicaStock,
} from "./shared/replica";
import { DEFAULT_STOCKS } from "../scripts/replica/stocks";
import { isClose, price18Bounds } from "./shared/tickPrice";

/**
 * The oracle on real Uniswap v3 pools (the replica of Robinhood Chain's trading surface, or the real
 * pools with FORK_URL): history against the ticks recorded off chain, a one-block spike, and gas
 * against Uniswap's own OracleLibrary path on the same pools in the same run.
 */
const WINDOW = 300;

interface Market {
  stock: ReplicaStock;
  assetIsToken0: boolean;
  exponent: number;
}

async function oracleOnReplica() {
  const replica = await replicaOnce();
  const oracle = (await (
    await ethers.getContractFactory("PriceOracle")
  ).deploy(await replica.usdg.getAddress(), WINDOW, replica.deployer.address)) as unknown as PriceOracle;
  const markets: Market[] = [];
  for (const stock of replica.stocks) {
    await oracle.setPool(stock.address, stock.poolAddress);
    const [, assetIsToken0, assetDecimals, usdgDecimals] = await oracle.poolOf(stock.address);
    markets.push({ stock, assetIsToken0, exponent: 18 + Number(assetDecimals) - Number(usdgDecimals) });
  }
  const math = (await (
    await ethers.getContractFactory("TwapMathHarness")
  ).deploy()) as unknown as TwapMathHarness;
  const uniswap = (await (
    await ethers.getContractFactory("UniswapOracleHarness")
  ).deploy()) as unknown as UniswapOracleHarness;
  return { replica, oracle, markets, math, uniswap };
}

/** One market of each token order. */
function bothOrders(markets: readonly Market[]): Market[] {
  const token0 = markets.find((m) => m.assetIsToken0);
  const token1 = markets.find((m) => !m.assetIsToken0);
  if (!token0 || !token1) throw new Error("the replica should hold pools in both token orders");
  return [token0, token1];
}

/** The earliest window end the pool's buffer covers: its oldest observation plus the window. */
async function oldestCovered(stock: ReplicaStock): Promise<number> {
  const { observationIndex, observationCardinality } = await stock.pool.slot0();
  const next = await stock.pool.observations((observationIndex + 1n) % observationCardinality);
  const oldest = next.initialized ? next.blockTimestamp : (await stock.pool.observations(0)).blockTimestamp;
  return Number(oldest) + WINDOW;
}

describe("PriceOracle on the replica", () => {
  before(announceReplicaMode);

  it("reads token order and decimals from chain: stocks 18, USDG 6, both orders", async () => {
    const { oracle, markets, replica } = await loadFixture(oracleOnReplica);
    expect(markets.length).to.be.at.least(3);
    for (const { stock, assetIsToken0 } of markets) {
      expect(assetIsToken0).to.equal(!stock.usdgIsToken0);
      const [pool, , assetDecimals, usdgDecimals] = await oracle.poolOf(stock.address);
      expect(pool).to.equal(stock.poolAddress);
      expect(assetDecimals).to.equal(BigInt(stock.decimals));
      expect(usdgDecimals).to.equal(BigInt(replica.usdgDecimals));
    }
    bothOrders(markets);
  });

  it("priceAt(t) equals the TWAP of the recorded ticks, and returns the same after more trading", async () => {
    const { oracle, markets, math, replica } = await loadFixture(oracleOnReplica);
    const recorded: Array<{ market: Market; t: number; price: bigint }> = [];
    for (const market of markets) {
      const events = await replica.history(market.stock);
      expect(events.length).to.be.greaterThan(5); // a real swap history
      const now = await time.latest();
      const first = Math.max(await oldestCovered(market.stock), events[0]!.timestamp + WINDOW);
      expect(now - first).to.be.greaterThan(3600); // hours of it
      // Window ends: both edges, each trade and its neighbours (the window's either end), a spread.
      const ends = new Set<number>([first, now]);
      for (const { timestamp } of events)
        for (const d of [-1, 0, 1, WINDOW - 1, WINDOW, WINDOW + 1]) ends.add(timestamp + d);
      for (let i = 0; i < 20; i++) ends.add(first + Math.floor(((now - first) * i) / 20));
      for (const t of [...ends].filter((t) => t >= first && t <= now)) {
        const tick = twapTick(events, t, WINDOW);
        const price = await oracle.priceAt(market.stock.address, t);
        expect(price, `${market.stock.symbol} t ${t}`).to.equal(
          await math.priceAtTick(tick, market.assetIsToken0, market.exponent),
        );
        const bounds = price18Bounds(tick, market.assetIsToken0, market.stock.decimals, replica.usdgDecimals);
        expect(isClose(price, bounds), `${market.stock.symbol} t ${t} reference`).to.equal(true);
        recorded.push({ market, t, price });
      }
    }
    // The history moves: the answers are not one constant.
    expect(new Set(recorded.map((r) => r.price)).size).to.be.greaterThan(markets.length * 10);
    // An hour of further trading in every pool: every past answer stands.
    for (let i = 0; i < 12; i++) {
      const market = markets[i % markets.length]!;
      await time.increase(300);
      if (i % 2 === 0) await replica.swap(market.stock, "buy", 20_000n * 10n ** BigInt(replica.usdgDecimals));
      else await replica.swap(market.stock, "sell", 100n * 10n ** BigInt(market.stock.decimals));
    }
    for (const { market, t, price } of recorded) {
      expect(await oracle.priceAt(market.stock.address, t), `${market.stock.symbol} t ${t} later`).to.equal(
        price,
      );
    }
    // And the present agrees with the model too.
    for (const market of markets) {
      const tick = twapTick(await replica.history(market.stock), await time.latest(), WINDOW);
      expect(await oracle.price(market.stock.address)).to.equal(
        await math.priceAtTick(tick, market.assetIsToken0, market.exponent),
      );
    }
  });

  it("fails with the typed errors beyond the buffer and in the future", async () => {
    const { oracle, markets, replica } = await loadFixture(oracleOnReplica);
    for (const { stock } of markets) {
      const first = await oldestCovered(stock);
      if (replica.mode === "replica") {
        // The ring has not wrapped: the oldest observation is the pool's initialisation.
        expect(first).to.equal((await replica.history(stock))[0]!.timestamp + WINDOW);
      }
      expect(await oracle.priceAt(stock.address, first)).to.be.greaterThan(0n);
      await expect(oracle.priceAt(stock.address, first - 1))
        .to.be.revertedWithCustomError(oracle, "PriceOracleWindowNotCovered")
        .withArgs(stock.address, first - 1, first);
      const now = await time.latest();
      await expect(oracle.priceAt(stock.address, now + 1))
        .to.be.revertedWithCustomError(oracle, "PriceOracleFutureTimestamp")
        .withArgs(now + 1, now);
    }
  });

  it("a one-block spike of X % moves the TWAP by at most about X × block gap / window", async () => {
    const { oracle, markets, replica } = await loadFixture(oracleOnReplica);
    const X = 0.1; // the spot price jumps 10 %
    const GAP = 12; // seconds until the manipulator can trade it back
    const trader = replica.trader;
    const router = replica.router.connect(trader) as Contract;
    const figures: string[] = [];
    for (const { stock, assetIsToken0 } of bothOrders(markets)) {
      // The price limit stops each swap; only the amount that moves the price is pulled. On a fork the
      // trader trades what the fixture borrowed from the pools (a few % of each).
      const big = 10n ** 30n;
      if (replica.mode === "replica") {
        await replica.fund(trader.address, "USDG", big);
        await replica.fund(trader.address, stock, big);
      }
      for (const token of [replica.usdg, stock.token]) {
        await (await token.connect(trader).approve(await router.getAddress(), ethers.MaxUint256)).wait();
      }
      const swapTo = async (tokenIn: string, tokenOut: string, sqrtPriceLimitX96: bigint) =>
        (
          await router.getFunction("exactInputSingle")({
            tokenIn,
            tokenOut,
            fee: stock.fee,
            recipient: trader.address,
            deadline: ethers.MaxUint256,
            amountIn: big,
            amountOutMinimum: 0n,
            sqrtPriceLimitX96,
          })
        ).wait();
      // Quiet for a whole window: the TWAP is the spot.
      await time.increase(WINDOW + 10);
      const base = await oracle.price(stock.address);
      const { sqrtPriceX96: sqrt0 } = await stock.pool.slot0();
      // The asset's price is sqrt² (token0) or 1/sqrt² (token1): move sqrt by the square root of 1 + X.
      const factor = BigInt(Math.round(Math.sqrt(1 + X) * 1e12));
      const spiked = assetIsToken0 ? (sqrt0 * factor) / 10n ** 12n : (sqrt0 * 10n ** 12n) / factor;
      const usdg = await replica.usdg.getAddress();
      await swapTo(usdg, stock.address, spiked); // buy: the spot jumps by X
      const spikeAt = await time.latest();
      const spot = await replica.priceUsdgPerShare(stock);
      expect(Number(spot - base) / Number(base)).to.be.closeTo(X, 0.002);
      await time.setNextBlockTimestamp(spikeAt + GAP);
      await swapTo(stock.address, usdg, sqrt0); // sell back one block later
      await time.increase(WINDOW + 10);
      let worst = 0;
      for (let t = spikeAt; t <= spikeAt + GAP + WINDOW + 1; t++) {
        const moved = Math.abs(Number((await oracle.priceAt(stock.address, t)) - base) / Number(base));
        worst = Math.max(worst, moved);
      }
      const bound = X * (GAP / WINDOW); // 0.4 %
      // The spike registers, and moves the TWAP no more than the bound, give or take the floored
      // mean tick (1 tick = 0.01 %).
      expect(worst).to.be.greaterThan(bound * 0.9);
      expect(worst).to.be.lessThan(bound + 1e-4);
      expect(await oracle.price(stock.address)).to.equal(base);
      figures.push(`${stock.symbol} (asset token${assetIsToken0 ? 0 : 1}) ${(worst * 100).toFixed(4)} %`);
    }
    console.log(
      `      spot +${X * 100} % for ${GAP} s, window ${WINDOW} s: largest TWAP move ${figures.join(", ")}; ` +
        `bound X × gap / window = ${((X * GAP * 100) / WINDOW).toFixed(2)} %`,
    );
  });

  it("gas: price() and priceAt() cost at most 10 % more than OracleLibrary.consult + getQuoteAtTick", async () => {
    const { oracle, markets, uniswap, replica } = await loadFixture(oracleOnReplica);
    const AGO = 6 * 3600; // priceAt six hours back: the pool binary-searches its buffer
    const usdg = await replica.usdg.getAddress();
    const rows: string[] = [];
    for (const { stock, assetIsToken0 } of bothOrders(markets)) {
      const order = `asset token${assetIsToken0 ? 0 : 1}`;
      const whole = 10n ** BigInt(stock.decimals);
      const toUsdgUnits = 10n ** BigInt(18 - replica.usdgDecimals);
      const now = await time.latest();
      const theirsNow = [stock.poolAddress, WINDOW, whole, stock.address, usdg] as const;
      const theirsPast = [stock.poolAddress, WINDOW, AGO, whole, stock.address, usdg] as const;
      // The same answer (ours in 18 decimals, Uniswap's in USDG units), then the gas of each read.
      const ours = await oracle.price(stock.address);
      expect(ours / toUsdgUnits - (await uniswap.quote(...theirsNow))).to.be.within(-1n, 1n);
      const oursPast = await oracle.priceAt(stock.address, now - AGO);
      expect(oursPast / toUsdgUnits - (await uniswap.quoteAt(...theirsPast))).to.be.within(-1n, 1n);
      const gas = {
        price: Number(await oracle.price.estimateGas(stock.address)),
        uniswapPrice: Number(await uniswap.quote.estimateGas(...theirsNow)),
        priceAt: Number(await oracle.priceAt.estimateGas(stock.address, now - AGO)),
        uniswapPriceAt: Number(await uniswap.quoteAt.estimateGas(...theirsPast)),
      };
      snapshotEstimatedGas(
        `PriceOracle.price (${order})`,
        BigInt(gas.price),
        oracle.interface.encodeFunctionData("price", [stock.address]),
      );
      snapshotEstimatedGas(
        `PriceOracle.priceAt 6h ago (${order})`,
        BigInt(gas.priceAt),
        oracle.interface.encodeFunctionData("priceAt", [stock.address, now - AGO]),
      );
      const ratio = (a: number, b: number) => (a / b).toFixed(3);
      rows.push(
        `${stock.symbol} ${order}: price ${gas.price} vs ${gas.uniswapPrice} (${ratio(gas.price, gas.uniswapPrice)}), ` +
          `priceAt ${gas.priceAt} vs ${gas.uniswapPriceAt} (${ratio(gas.priceAt, gas.uniswapPriceAt)})`,
      );
      expect(gas.price).to.be.at.most(gas.uniswapPrice * 1.1);
      expect(gas.priceAt).to.be.at.most(gas.uniswapPriceAt * 1.1);
    }
    console.log(`      gas (estimateGas; ours vs Uniswap's library path; ratio): ${rows.join("; ")}`);
  });
});

describe("PriceOracle on a pool that writes an observation every second (Arbitrum's clock)", () => {
  // Small numbers, same arithmetic as launch (300 s window, an hour of grace, 3,901 observations).
  const W = 30;
  const GRACE = 30;
  const SPAN = W + GRACE;

  /** A replica with one stock whose pool's ring will hold exactly SPAN + 1 observations. */
  async function tightPool() {
    const replica = await buildReplica({
      stocks: DEFAULT_STOCKS.slice(0, 1),
      observationCardinality: SPAN + 1,
      hours: 0,
    });
    const stock = replica.stocks[0]!;
    const oracle = (await (
      await ethers.getContractFactory("PriceOracle")
    ).deploy(await replica.usdg.getAddress(), W, replica.deployer.address)) as unknown as PriceOracle;
    await oracle.setRequiredSpan(SPAN);
    // Fund and approve the trader now, so that each timed swap below is the only block at its second.
    await replica.fund(replica.trader.address, "USDG", 100_000_000n * 10n ** BigInt(replica.usdgDecimals));
    await replica.fund(replica.trader.address, stock, 1_000_000n * 10n ** BigInt(stock.decimals));
    for (const token of [replica.usdg, stock.token]) {
      await token.connect(replica.trader).approve(await replica.router.getAddress(), ethers.MaxUint256);
    }
    return { replica, stock, oracle };
  }

  /** One swap at `at`, alternately buying and selling ~1 % of the pool, so that every one moves the tick. */
  async function tradeAt(replica: Replica, stock: ReplicaStock, at: number, i: number) {
    if (i % 2 === 0) await replica.swap(stock, "buy", 50_000n * 10n ** BigInt(replica.usdgDecimals), { at });
    else await replica.swap(stock, "sell", 250n * 10n ** BigInt(stock.decimals), { at });
  }

  it("refuses a pool whose ring in use (not the slots reserved) is short; with a trade every second the margin is the grace", async () => {
    const { replica, stock, oracle } = await loadFixture(tightPool);
    // A new pool of the same pair (another fee tier), its slots reserved: still one observation in use.
    const { sqrtPriceX96 } = await stock.pool.slot0();
    await replica.factory.createPool(await replica.usdg.getAddress(), stock.address, 10_000);
    const fresh = IUniswapV3Pool__factory.connect(
      await replica.factory.getPool(await replica.usdg.getAddress(), stock.address, 10_000),
      replica.deployer,
    );
    await fresh.initialize(sqrtPriceX96);
    await fresh.increaseObservationCardinalityNext(SPAN + 1);
    const reserved = await fresh.slot0();
    expect([reserved.observationCardinality, reserved.observationCardinalityNext]).to.deep.equal([
      1n,
      BigInt(SPAN + 1),
    ]);
    await expect(oracle.setPool(stock.address, await fresh.getAddress()))
      .to.be.revertedWithCustomError(oracle, "PriceOracleCardinalityTooLow")
      .withArgs(await fresh.getAddress(), 1, SPAN + 1);
    // The replica's pool: its ring grew to SPAN + 1 at its first write (the liquidity mint).
    let t = (await time.latest()) + 1;
    let i = 0;
    await tradeAt(replica, stock, t, i++);
    expect((await stock.pool.slot0()).observationCardinality).to.equal(BigInt(SPAN + 1));
    await oracle.setPool(stock.address, stock.poolAddress);
    t = await time.latest();
    // The worst case: a trade every second, until the ring has wrapped.
    for (let k = 0; k < SPAN + 5; k++) await tradeAt(replica, stock, ++t, i++);
    const closesAt = t;
    const [span, guaranteed, needed] = await oracle.coverage(stock.address);
    expect([span, guaranteed, needed]).to.deep.equal([BigInt(SPAN), BigInt(SPAN), BigInt(SPAN)]);
    // Settled up to GRACE seconds after it closes, the exit price is there, unchanged.
    const exit = await oracle.priceAt(stock.address, closesAt);
    for (let k = 0; k < GRACE; k++) await tradeAt(replica, stock, ++t, i++);
    expect(t - closesAt).to.equal(GRACE);
    expect(await oracle.priceAt(stock.address, closesAt)).to.equal(exit);
    // One more second of trading overwrites the observation at closesAt - W: Uniswap's "OLD",
    // as the oracle's typed error (the ledger voids such a call).
    await tradeAt(replica, stock, ++t, i++);
    await expect(oracle.priceAt(stock.address, closesAt))
      .to.be.revertedWithCustomError(oracle, "PriceOracleWindowNotCovered")
      .withArgs(stock.address, closesAt, t - SPAN + W);
  });

  it("at a realistic trading rate the same ring gives a late settle ten times the grace", async () => {
    const { replica, stock, oracle } = await loadFixture(tightPool);
    let t = (await time.latest()) + 1;
    let i = 0;
    await tradeAt(replica, stock, t, i++);
    await oracle.setPool(stock.address, stock.poolAddress);
    t = await time.latest();
    // A trade every 12 s (still far busier than a stock pool off hours).
    for (let k = 0; k < SPAN + 5; k++) await tradeAt(replica, stock, (t += 12), i++);
    const closesAt = t;
    const exit = await oracle.priceAt(stock.address, closesAt);
    while (t < closesAt + 10 * GRACE) await tradeAt(replica, stock, (t += 12), i++);
    expect(await oracle.priceAt(stock.address, closesAt)).to.equal(exit);
    const [span] = await oracle.coverage(stock.address);
    expect(span).to.be.greaterThanOrEqual(BigInt(12 * SPAN));
  });
});
