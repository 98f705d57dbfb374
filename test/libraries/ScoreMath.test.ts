import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import fc from "fast-check";
import { ONE, scoreModel } from "../shared/callLedger";

/** The seed quotes scores to two decimals; round half up as a reader would. */
function twoDecimals(score18: bigint): string {
  const hundredths = (score18 + ONE / 200n) / (ONE / 100n);
  return `${hundredths / 100n}.${(hundredths % 100n).toString().padStart(2, "0")}`;
}

const MIN_STAKE = 100n * 10n ** 6n;
// The range ScoreMath's NatSpec promises never overflows.
const U64 = 2n ** 64n - 1n;
const U128 = 2n ** 128n - 1n;

describe("ScoreMath", () => {
  async function harnessFixture() {
    return { harness: await ethers.deployContract("ScoreMathHarness") };
  }

  describe("seed 001 figures (weight 1 unless stated)", () => {
    const cases: Array<[string, bigint, bigint, bigint, string, bigint]> = [
      ["one hit", 1n, 0n, MIN_STAKE, "0.50", ONE / 2n],
      ["two hits", 2n, 0n, MIN_STAKE, "1.33", (4n * ONE) / 3n],
      ["ten hits in ten", 10n, 0n, MIN_STAKE, "9.09", (100n * ONE) / 11n],
      ["14 hits, 6 misses at minimum stake", 14n, 6n, MIN_STAKE, "9.33", (196n * ONE) / 21n],
      ["14 hits, 6 misses at double stake", 14n, 6n, 2n * MIN_STAKE, "18.67", (392n * ONE) / 21n],
    ];
    for (const [name, hits, misses, stake, quoted, exact] of cases) {
      it(`${name} scores ${quoted}`, async () => {
        const { harness } = await loadFixture(harnessFixture);
        const score = await harness.computeScore(hits, misses, stake, MIN_STAKE);
        expect(score).to.equal(exact);
        expect(twoDecimals(score)).to.equal(quoted);
      });
    }

    it("no hits score zero whatever the stake", async () => {
      const { harness } = await loadFixture(harnessFixture);
      expect(await harness.computeScore(0, 50, 10n ** 30n, MIN_STAKE)).to.equal(0n);
    });

    it("keeps the fractional weight of a stake between multiples of minStake", async () => {
      const { harness } = await loadFixture(harnessFixture);
      // 1.5 × minStake, one hit: 0.5 × 1.5 = 0.75 (a weight floored first would give 0.5).
      expect(await harness.computeScore(1, 0, (3n * MIN_STAKE) / 2n, MIN_STAKE)).to.equal((3n * ONE) / 4n);
    });

    it("reverts rather than wraps outside the stated range", async () => {
      const { harness } = await loadFixture(harnessFixture);
      await expect(harness.computeScore(2n ** 128n, 0, 1, 1)).to.be.revertedWithPanic(0x11);
    });
  });

  describe("properties", () => {
    // One below 2^64 - 1, so that the +1 hit or miss stays in range.
    const largeCount = fc.bigInt({ min: 0n, max: U64 - 1n });
    const stake = fc.bigInt({ min: 0n, max: U128 });
    const minStake = fc.bigInt({ min: 1n, max: U128 });
    // Small records too, where rounding matters most.
    const smallCount = fc.bigInt({ min: 0n, max: 1000n });
    const count = fc.oneof(largeCount, smallCount);

    it("never overflows and equals the exact model for hits, misses < 2^64, stake, minStake < 2^128", async () => {
      const { harness } = await loadFixture(harnessFixture);
      await fc.assert(
        fc.asyncProperty(count, count, stake, minStake, async (h, m, s, min) => {
          expect(await harness.computeScore(h, m, s, min)).to.equal(scoreModel(h, m, s, min));
        }),
      );
    });

    it("adding a hit never lowers the score", async () => {
      const { harness } = await loadFixture(harnessFixture);
      await fc.assert(
        fc.asyncProperty(count, count, stake, minStake, async (h, m, s, min) => {
          const [before, after] = await harness.computeScores([h, h + 1n], [m, m], [s, s], min);
          expect(after).to.be.gte(before!);
        }),
      );
    });

    it("adding a miss never raises the score", async () => {
      const { harness } = await loadFixture(harnessFixture);
      await fc.assert(
        fc.asyncProperty(count, count, stake, minStake, async (h, m, s, min) => {
          const [before, after] = await harness.computeScores([h, h], [m, m + 1n], [s, s], min);
          expect(after).to.be.lte(before!);
        }),
      );
    });

    it("is linear in stake up to the one final rounding: 0 <= score(k·s) - k·score(s) < k", async () => {
      const { harness } = await loadFixture(harnessFixture);
      const k = fc.bigInt({ min: 1n, max: 1000n });
      const smallStake = fc.bigInt({ min: 0n, max: U128 / 1000n });
      await fc.assert(
        fc.asyncProperty(count, count, smallStake, minStake, k, async (h, m, s, min, factor) => {
          const [single, scaled] = await harness.computeScores([h, h], [m, m], [s, s * factor], min);
          const gap = scaled! - factor * single!;
          expect(gap >= 0n && gap < factor, `gap ${gap} for k = ${factor}`).to.equal(true);
        }),
      );
    });
  });
});
