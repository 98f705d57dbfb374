import { expect } from "chai";
import fc from "fast-check";
import { fullRange, isqrt, MAX_TICK, MIN_TICK, Q96, tradePrice, usdgValue } from "../../scripts/replica/math";
import {
  approxPriceAtTick,
  priceFromSqrtPriceX96,
  sqrtPriceX96FromPrice,
  tickCumulativeDelta,
  twapTick,
  type PoolEvent,
} from "../shared/replica";

const shapes = [true, false].map((usdgIsToken0) => ({ usdgIsToken0, usdgDecimals: 6, stockDecimals: 18 }));

function event(timestamp: number, tick: number): PoolEvent {
  return { kind: "swap", timestamp, blockNumber: 0, blockHash: "0x", tick, sqrtPriceX96: Q96 };
}

describe("replica math", function () {
  it("isqrt is the floor square root", function () {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 320n }), (n) => {
        const r = isqrt(n);
        return r * r <= n && (r + 1n) * (r + 1n) > n;
      }),
    );
  });

  it("price -> sqrtPriceX96 -> price round-trips to 1e-12 in both orders", function () {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 10n ** 15n, max: 10n ** 24n }), // 0.001 to 1,000,000 USDG per share
        fc.boolean(),
        (price, usdgIsToken0) => {
          const shape = shapes[usdgIsToken0 ? 0 : 1]!;
          const back = priceFromSqrtPriceX96(sqrtPriceX96FromPrice(price, shape), shape);
          const error = back > price ? back - price : price - back;
          return error * 10n ** 12n <= price;
        },
      ),
    );
  });

  it("180 USDG per share sits at the expected ticks for each order", function () {
    // USDG token0: raw price = 1e18 / (180 * 1e6) ~ 5.56e9 shares-wei per USDG unit, tick ~ +224,390.
    // USDG token1: the inverse, tick ~ -224,390. The float helper agrees with the exact conversion.
    const [usdg0, usdg1] = shapes as [(typeof shapes)[0], (typeof shapes)[0]];
    const tick0 = Math.round(Math.log(1e18 / 180e6) / Math.log(1.0001));
    expect(tick0).to.be.within(224_300, 224_500);
    expect(approxPriceAtTick(tick0, usdg0)).to.be.closeTo(180, 0.02);
    expect(approxPriceAtTick(-tick0, usdg1)).to.be.closeTo(180, 0.02);
    const sqrt0 = sqrtPriceX96FromPrice(180n * 10n ** 18n, usdg0);
    const sqrt1 = sqrtPriceX96FromPrice(180n * 10n ** 18n, usdg1);
    expect(sqrt0 > Q96).to.equal(true); // token1 (shares) is the cheap side
    expect(sqrt1 < Q96).to.equal(true);
  });

  it("full range is aligned to the tick spacing", function () {
    for (const spacing of [1, 10, 60, 200]) {
      const { tickLower, tickUpper } = fullRange(spacing);
      expect(tickLower % spacing).to.equal(0);
      expect(tickUpper % spacing).to.equal(0);
      expect(tickLower).to.be.at.least(MIN_TICK);
      expect(tickUpper).to.be.at.most(MAX_TICK);
      expect(tickLower - spacing).to.be.lessThan(MIN_TICK);
    }
  });

  it("the accumulator model sums tick x seconds held and rounds the TWAP toward -infinity", function () {
    const events = [event(1000, 10), event(1100, -7), event(1250, -8)];
    expect(tickCumulativeDelta(events, 1000, 1100)).to.equal(1000n);
    expect(tickCumulativeDelta(events, 1050, 1300)).to.equal(50n * 10n + 150n * -7n + 50n * -8n);
    expect(tickCumulativeDelta(events, 1300, 1300)).to.equal(0n);
    // (-7 * 150 + -8 * 50) / 200 = -7.25 -> -8, not Solidity's truncated -7.
    expect(twapTick(events, 1300, 200)).to.equal(-8);
    expect(twapTick(events, 1100, 100)).to.equal(10);
    expect(() => tickCumulativeDelta(events, 999, 1100)).to.throw(RangeError);
  });

  it("values shares and prices trades at USDG's decimals, 6 or 18, as read on chain", function () {
    const six = { usdgDecimals: 6, stockDecimals: 18 };
    const eighteen = { usdgDecimals: 18, stockDecimals: 18 };
    // 2.5 shares at 180 USDG: 450 USDG, in raw units of either USDG.
    expect(usdgValue(25n * 10n ** 17n, 180n * 10n ** 18n, six)).to.equal(450n * 10n ** 6n);
    expect(usdgValue(25n * 10n ** 17n, 180n * 10n ** 18n, eighteen)).to.equal(450n * 10n ** 18n);
    // 450 USDG for 2.5 shares: 180 USDG per share (18 decimals) whatever USDG's decimals.
    expect(tradePrice(450n * 10n ** 6n, 25n * 10n ** 17n, six)).to.equal(180n * 10n ** 18n);
    expect(tradePrice(450n * 10n ** 18n, 25n * 10n ** 17n, eighteen)).to.equal(180n * 10n ** 18n);
    // With a 6-decimal USDG they are the demo's former fixed-decimal formulas, to the unit.
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 30n }),
        fc.bigInt({ min: 1n, max: 10n ** 24n }),
        (a, b) => {
          const wad = 10n ** 18n;
          return (
            usdgValue(a, b, six) === (a * b) / wad / 10n ** 12n &&
            tradePrice(b, a, six) === (b * 10n ** 12n * wad) / a
          );
        },
      ),
    );
  });
});
