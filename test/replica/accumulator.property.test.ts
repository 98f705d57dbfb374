import { expect } from "chai";
import fc from "fast-check";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import { DEFAULT_STOCKS, priceOf } from "../../scripts/replica/stocks";
import {
  announceReplicaMode,
  deployReplica,
  priceFromSqrtPriceX96,
  tickCumulativeDelta,
  PRICE_ONE,
} from "../shared/replica";

// Each run reverts the replica and mines a handful of swaps, about 0.1 s: a 25th of the global run
// count keeps the file well under a minute (40 runs in `npm test`, 400 in `npm run test:deep`).
const numRuns = Math.max(10, Math.round(Number(process.env.FC_RUNS ?? 1000) / 25));

const step = fc.record({
  stock: fc.nat({ max: 99 }),
  buy: fc.boolean(),
  usdg: fc.integer({ min: 100, max: 60_000 }),
  gap: fc.integer({ min: 1, max: 4 * 3600 }),
});

describe("replica: tick accumulator against a model of random trading (fast-check)", function () {
  before(announceReplicaMode);

  it("observe() equals the sum of tick x seconds held for any swap sequence", async function () {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
        const replica = await loadFixture(deployReplica);
        let at = await time.latest();
        for (const { stock, buy, usdg, gap } of steps) {
          const s = replica.stocks[stock % replica.stocks.length]!;
          const usdgIn = BigInt(usdg) * 10n ** BigInt(replica.usdgDecimals);
          const price = await replica.priceUsdgPerShare(s);
          const sharesIn =
            (usdgIn * 10n ** BigInt(s.decimals) * PRICE_ONE) / (price * 10n ** BigInt(replica.usdgDecimals));
          at += gap;
          await replica.swap(s, buy ? "buy" : "sell", buy ? usdgIn : sharesIn, { at });
        }
        await time.increase(1 + (steps[0]!.gap % 900));
        const now = await time.latest();
        for (const s of replica.stocks) {
          const history = await replica.history(s);
          const from = history[0]!.timestamp;
          const { tickCumulatives } = await s.pool.observe([now - from, 0]);
          expect(tickCumulatives[1]! - tickCumulatives[0]!).to.equal(tickCumulativeDelta(history, from, now));
        }
      }),
      { numRuns },
    );
  });

  it("the pools open at the listed prices (replica) and keep a positive price (any chain)", async function () {
    const replica = await loadFixture(deployReplica);
    for (const s of replica.stocks) {
      const first = (await replica.history(s))[0]!;
      const opened = priceFromSqrtPriceX96(first.sqrtPriceX96, s.shape);
      expect(opened).to.be.greaterThan(0n);
      if (replica.mode === "replica") {
        const listed = priceOf(DEFAULT_STOCKS.find((x) => x.symbol === s.symbol)!);
        const error = opened > listed ? opened - listed : listed - opened;
        expect(error * 10n ** 12n).to.be.at.most(listed);
      }
    }
  });
});
