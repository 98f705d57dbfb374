import { expect } from "chai";
import fc from "fast-check";
import { ethers } from "hardhat";
import type { TwapMathHarness } from "../../typechain-types";
import {
  FRACTION_BITS,
  MAX_TICK,
  MIN_TICK,
  exactPow10001,
  isClose,
  meanTickFloor,
  pow10001Bounds,
  price18Bounds,
} from "../shared/tickPrice";

/** Decimal pairs (asset, USDG) the oracle meets: a stock against USDG, the reverse, and equal decimals. */
const DECIMAL_PAIRS: ReadonlyArray<readonly [number, number]> = [
  [18, 6],
  [6, 18],
  [18, 18],
];
const EXPONENTS = DECIMAL_PAIRS.map(([asset, usdg]) => 18 + asset - usdg);

describe("TwapMath", () => {
  let harness: TwapMathHarness;

  before(async () => {
    harness = await (await ethers.getContractFactory("TwapMathHarness")).deploy();
  });

  describe("reference (test/shared/tickPrice)", () => {
    it("bounds bracket the exact fraction of 1.0001^tick, including both ends of the range", () => {
      const ticks = [0, 1, -1, 7, -7, 1_000, -65_536, 200_311, -345_678, 500_000, MIN_TICK, MAX_TICK];
      for (const tick of ticks) {
        const { num, den } = exactPow10001(tick);
        const scaledFloor = (num << FRACTION_BITS) / den;
        const { lo, hi } = pow10001Bounds(tick);
        expect(lo <= scaledFloor && scaledFloor <= hi, `tick ${tick}`).to.equal(true);
        // Tight: the bounds differ from the exact value by far less than 1 part in 10^30.
        expect((hi - lo) * 10n ** 30n <= lo, `tick ${tick} width`).to.equal(true);
      }
    });
  });

  describe("meanTick", () => {
    it("floors exact and inexact means of either sign", async () => {
      expect(await harness.meanTick(0, 3000, 300)).to.equal(10);
      expect(await harness.meanTick(0, -3000, 300)).to.equal(-10);
      expect(await harness.meanTick(0, 3001, 300)).to.equal(10);
      expect(await harness.meanTick(0, -3001, 300)).to.equal(-11);
      expect(await harness.meanTick(-500, -501, 300)).to.equal(-1);
      expect(await harness.meanTick(1, 0, 1)).to.equal(-1);
    });

    it("equals floor((end - start) / window) for any window and any mean tick in range", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 2 ** 32 - 1 }),
          fc.integer({ min: MIN_TICK, max: MAX_TICK }),
          fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
          fc.bigInt({ min: -(2n ** 50n), max: 2n ** 50n }),
          async (window, tick, fraction, start) => {
            // end - start = tick * window + remainder, remainder in [0, window): floor of the mean is `tick`.
            const remainder = BigInt(Math.floor(fraction * window));
            const end = start + BigInt(tick) * BigInt(window) + remainder;
            const expected = meanTickFloor(start, end, BigInt(window));
            expect(expected).to.equal(BigInt(tick));
            expect(await harness.meanTick(start, end, window)).to.equal(expected);
          },
        ),
      );
    });
  });

  describe("scaleExponent", () => {
    it("is 18 + asset - usdg decimals within [0, 38], and unsupported outside", async () => {
      expect(await harness.scaleExponent(18, 6)).to.deep.equal([30n, true]);
      expect(await harness.scaleExponent(6, 18)).to.deep.equal([6n, true]);
      expect(await harness.scaleExponent(0, 18)).to.deep.equal([0n, true]);
      expect(await harness.scaleExponent(20, 0)).to.deep.equal([38n, true]);
      expect((await harness.scaleExponent(0, 19))[1]).to.equal(false);
      expect((await harness.scaleExponent(21, 0))[1]).to.equal(false);
      expect((await harness.scaleExponent(255, 255))[1]).to.equal(true);
      expect((await harness.scaleExponent(255, 0))[1]).to.equal(false);
    });
  });

  describe("priceAtTick", () => {
    it("prices tick 0 at 10^exponent and 180 USDG per share near its tick, both orders", async () => {
      expect(await harness.priceAtTick(0, true, 30)).to.equal(10n ** 30n);
      expect(await harness.priceAtTick(0, false, 18)).to.equal(10n ** 18n);
      // 180 USDG (6 decimals) per share (18 decimals): raw token1/token0 = 1.8e-10 with the stock as
      // token0, tick floor(log_1.0001(1.8e-10)) = -224_392.
      const asToken0 = await harness.priceAtTick(-224_392, true, 30);
      expect(asToken0).to.be.within(179_990_000_000_000_000_000n, 180_000_000_000_000_000_000n);
      const asToken1 = await harness.priceAtTick(224_392, false, 30);
      expect(asToken1).to.equal(asToken0);
    });

    it("equals the big-rational reference within 1 part in 1e15, full tick range, both orders, 18/6 6/18 18/18", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.integer({ min: MIN_TICK, max: MAX_TICK }),
            fc.integer({ min: -1_000, max: 1_000 }),
            fc.constantFrom(MIN_TICK, MAX_TICK, MIN_TICK + 1, MAX_TICK - 1, 0),
          ),
          async (tick) => {
            const [asToken0, asToken1] = await harness.pricesAtTick(tick, EXPONENTS);
            expect(asToken0.length).to.equal(DECIMAL_PAIRS.length);
            expect(asToken1.length).to.equal(DECIMAL_PAIRS.length);
            DECIMAL_PAIRS.forEach(([assetDecimals, usdgDecimals], i) => {
              const bounds0 = price18Bounds(tick, true, assetDecimals, usdgDecimals);
              const bounds1 = price18Bounds(tick, false, assetDecimals, usdgDecimals);
              expect(
                isClose(BigInt(asToken0[i] ?? 0n), bounds0),
                `tick ${tick} token0 ${assetDecimals}/${usdgDecimals}`,
              ).to.equal(true);
              expect(
                isClose(BigInt(asToken1[i] ?? 0n), bounds1),
                `tick ${tick} token1 ${assetDecimals}/${usdgDecimals}`,
              ).to.equal(true);
            });
          },
        ),
      );
    });

    it("reaches both ends of the range at the largest exponent without overflow", async () => {
      const top = await harness.priceAtTick(MAX_TICK, true, 38);
      expect(isClose(top, price18Bounds(MAX_TICK, true, 20, 0))).to.equal(true);
      expect(await harness.priceAtTick(MIN_TICK, false, 38)).to.equal(top);
    });

    it("rejects an exponent above 38 with TwapMathExponentTooLarge", async () => {
      await expect(harness.priceAtTick(0, true, 39))
        .to.be.revertedWithCustomError(harness, "TwapMathExponentTooLarge")
        .withArgs(39);
      expect(await harness.priceAtTick(0, true, 38)).to.equal(10n ** 38n);
    });

    it("rejects a tick outside [MIN_TICK, MAX_TICK] with TickMath's error", async () => {
      await expect(harness.priceAtTick(MAX_TICK + 1, true, 18)).to.be.revertedWithCustomError(harness, "T");
      await expect(harness.priceAtTick(MIN_TICK - 1, false, 18)).to.be.revertedWithCustomError(harness, "T");
    });
  });
});
