import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture, time, takeSnapshot } from "@nomicfoundation/hardhat-network-helpers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import type { FunctionFragment } from "ethers";
import { isClose, price18Bounds } from "./shared/tickPrice";

/**
 * Unit tests of the oracle's rules (admin, pushes, errors) on a mock pool with a constant tick.
 * Prices from real Uniswap v3 pools (history, manipulation, gas) are tested on the replica in
 * PriceOracle.replica.test.ts.
 */
const WINDOW = 300;
const HOUR = 3600;
const TICK = -224_392; // ~180 USDG per share with the share as token0 (18 and 6 decimals)

async function deployFixture() {
  const signers = await ethers.getSigners();
  const [admin, updater, stranger] = [0, 1, 2].map((i) => {
    const signer = signers[i];
    if (signer === undefined) throw new Error(`no signer ${i}`);
    return signer;
  }) as [HardhatEthersSigner, HardhatEthersSigner, HardhatEthersSigner];
  const Token = await ethers.getContractFactory("MockDecimalsToken");
  const usdg = await Token.deploy("USDG", 6);
  const stock = await Token.deploy("TSLA", 18);
  const other = await Token.deploy("NVDA", 18);
  const Oracle = await ethers.getContractFactory("PriceOracle");
  const oracle = await Oracle.deploy(await usdg.getAddress(), WINDOW, admin.address);
  const Pool = await ethers.getContractFactory("MockObservationPool");
  const now = await time.latest();
  // A pool of the share as token0 with history from an hour ago and room for the window.
  const pool = await Pool.deploy(await stock.getAddress(), await usdg.getAddress(), WINDOW + 1, now - HOUR);
  await pool.setTick(TICK);
  // The same pair with the tokens the other way round.
  const flipped = await Pool.deploy(await usdg.getAddress(), await stock.getAddress(), 1800, now - HOUR);
  await flipped.setTick(-TICK);
  return { oracle, usdg, stock, other, pool, flipped, admin, updater, stranger, Pool, Oracle, Token };
}

describe("PriceOracle (unit, mock pool)", () => {
  describe("constructor", () => {
    it("stores USDG, the window, the owner and the default staleness, and emits it", async () => {
      const { oracle, usdg, admin } = await loadFixture(deployFixture);
      expect(await oracle.usdg()).to.equal(await usdg.getAddress());
      expect(await oracle.twapWindow()).to.equal(WINDOW);
      expect(await oracle.owner()).to.equal(admin.address);
      expect(await oracle.maxStaleness()).to.equal(HOUR);
      await expect(oracle.deploymentTransaction()).to.emit(oracle, "MaxStalenessSet").withArgs(0, HOUR);
    });

    it("rejects a zero or uncoverable window, a zero USDG and a zero admin", async () => {
      const { Oracle, usdg, admin } = await loadFixture(deployFixture);
      const usdgAddress = await usdg.getAddress();
      await expect(Oracle.deploy(usdgAddress, 0, admin.address))
        .to.be.revertedWithCustomError(Oracle, "PriceOracleInvalidTwapWindow")
        .withArgs(0);
      await expect(Oracle.deploy(usdgAddress, 65_535, admin.address))
        .to.be.revertedWithCustomError(Oracle, "PriceOracleInvalidTwapWindow")
        .withArgs(65_535);
      await expect(Oracle.deploy(usdgAddress, 65_534, admin.address)).not.to.be.reverted;
      await expect(Oracle.deploy(ethers.ZeroAddress, WINDOW, admin.address)).to.be.revertedWithCustomError(
        Oracle,
        "PriceOracleZeroUsdg",
      );
      await expect(Oracle.deploy(usdgAddress, WINDOW, ethers.ZeroAddress))
        .to.be.revertedWithCustomError(Oracle, "OwnableInvalidOwner")
        .withArgs(ethers.ZeroAddress);
    });
  });

  describe("setPool", () => {
    it("validates and stores the pool with both tokens' decimals, either token order, and emits PoolSet", async () => {
      const { oracle, stock, other, usdg, pool, Pool } = await loadFixture(deployFixture);
      const asset = await stock.getAddress();
      await expect(oracle.setPool(asset, await pool.getAddress()))
        .to.emit(oracle, "PoolSet")
        .withArgs(asset, await pool.getAddress(), ethers.ZeroAddress, true, 18, 6);
      expect(await oracle.poolOf(asset)).to.deep.equal([await pool.getAddress(), true, 18n, 6n]);
      const otherAsset = await other.getAddress();
      const token1Pool = await Pool.deploy(await usdg.getAddress(), otherAsset, WINDOW + 1, 0);
      await expect(oracle.setPool(otherAsset, await token1Pool.getAddress()))
        .to.emit(oracle, "PoolSet")
        .withArgs(otherAsset, await token1Pool.getAddress(), ethers.ZeroAddress, false, 18, 6);
      expect(await oracle.poolOf(otherAsset)).to.deep.equal([await token1Pool.getAddress(), false, 18n, 6n]);
    });

    it("prices the same tick identically whichever token is token0", async () => {
      const { oracle, stock, pool, flipped, Oracle, usdg, admin } = await loadFixture(deployFixture);
      const asset = await stock.getAddress();
      await oracle.setPool(asset, await pool.getAddress());
      const fromToken0 = await oracle.price(asset);
      const second = await Oracle.deploy(await usdg.getAddress(), WINDOW, admin.address);
      await second.setPool(asset, await flipped.getAddress());
      expect(await second.price(asset)).to.equal(fromToken0);
      expect(isClose(fromToken0, price18Bounds(TICK, true, 18, 6))).to.equal(true);
      expect(fromToken0 / 10n ** 18n).to.equal(179n);
    });

    it("rejects a pool that is not the (asset, USDG) pair", async () => {
      const { oracle, stock, other, usdg, Pool } = await loadFixture(deployFixture);
      const asset = await stock.getAddress();
      const otherAsset = await other.getAddress();
      const usdgAddress = await usdg.getAddress();
      const wrong = await Pool.deploy(otherAsset, usdgAddress, 1000, 0);
      await expect(oracle.setPool(asset, await wrong.getAddress()))
        .to.be.revertedWithCustomError(oracle, "PriceOracleWrongPool")
        .withArgs(asset, await wrong.getAddress(), otherAsset, usdgAddress);
      const noUsdg = await Pool.deploy(asset, otherAsset, 1000, 0);
      await expect(oracle.setPool(asset, await noUsdg.getAddress()))
        .to.be.revertedWithCustomError(oracle, "PriceOracleWrongPool")
        .withArgs(asset, await noUsdg.getAddress(), asset, otherAsset);
    });

    it("rejects a pool whose observation cardinality cannot always cover the window", async () => {
      const { oracle, stock, usdg, Pool } = await loadFixture(deployFixture);
      const asset = await stock.getAddress();
      const small = await Pool.deploy(asset, await usdg.getAddress(), WINDOW, 0);
      await expect(oracle.setPool(asset, await small.getAddress()))
        .to.be.revertedWithCustomError(oracle, "PriceOracleCardinalityTooLow")
        .withArgs(await small.getAddress(), WINDOW, WINDOW + 1);
      // A brand-new Uniswap pool holds a single observation.
      const single = await Pool.deploy(asset, await usdg.getAddress(), 1, 0);
      await expect(oracle.setPool(asset, await single.getAddress()))
        .to.be.revertedWithCustomError(oracle, "PriceOracleCardinalityTooLow")
        .withArgs(await single.getAddress(), 1, WINDOW + 1);
    });

    it("requires the cardinality in use to cover requiredSpan, not the slots merely reserved", async () => {
      const { oracle, stock, usdg, Pool, admin } = await loadFixture(deployFixture);
      const asset = await stock.getAddress();
      expect(await oracle.requiredSpan()).to.equal(WINDOW);
      await expect(oracle.deploymentTransaction()).to.emit(oracle, "RequiredSpanSet").withArgs(0, WINDOW);
      const span = WINDOW + HOUR; // the window plus an hour's settle grace
      await expect(oracle.connect(admin).setRequiredSpan(span))
        .to.emit(oracle, "RequiredSpanSet")
        .withArgs(WINDOW, span);
      const pool = await Pool.deploy(asset, await usdg.getAddress(), span, 0);
      await pool.increaseObservationCardinalityNext(6000);
      // 6,000 slots reserved, but the ring the pool writes is still `span` long until its index wraps.
      await expect(oracle.setPool(asset, await pool.getAddress()))
        .to.be.revertedWithCustomError(oracle, "PriceOracleCardinalityTooLow")
        .withArgs(await pool.getAddress(), span, span + 1);
      await pool.setObservations(0, span + 1, 0);
      await expect(oracle.setPool(asset, await pool.getAddress())).to.emit(oracle, "PoolSet");
    });

    it("rejects a required span below the window or beyond any cardinality", async () => {
      const { oracle } = await loadFixture(deployFixture);
      for (const bad of [WINDOW - 1, 65_535, 2 ** 32 - 1]) {
        await expect(oracle.setRequiredSpan(bad))
          .to.be.revertedWithCustomError(oracle, "PriceOracleInvalidRequiredSpan")
          .withArgs(bad, WINDOW, 65_534);
      }
      await expect(oracle.setRequiredSpan(65_534)).to.emit(oracle, "RequiredSpanSet");
      await expect(oracle.setRequiredSpan(WINDOW)).to.emit(oracle, "RequiredSpanSet");
    });

    it("rejects decimals that put the 18-decimal price out of range", async () => {
      const { Oracle, Token, Pool, admin } = await loadFixture(deployFixture);
      const wideUsdg = await Token.deploy("WUSD", 24);
      const oracle = await Oracle.deploy(await wideUsdg.getAddress(), WINDOW, admin.address);
      const share = await Token.deploy("ODD", 5); // 18 + 5 - 24 = -1
      const pool = await Pool.deploy(await share.getAddress(), await wideUsdg.getAddress(), 1000, 0);
      await expect(oracle.setPool(await share.getAddress(), await pool.getAddress()))
        .to.be.revertedWithCustomError(oracle, "PriceOracleUnsupportedDecimals")
        .withArgs(await share.getAddress(), 5, 24);
    });

    it("reads both tokens' decimals on chain, whatever USDG's are", async () => {
      const { Oracle, Token, Pool, admin, stock } = await loadFixture(deployFixture);
      const asset = await stock.getAddress();
      // USDG is documented with 6 decimals in one place and 18 in another: the oracle never assumes.
      for (const usdgDecimals of [6n, 18n]) {
        const usdg = await Token.deploy("USDG", usdgDecimals);
        const oracle = await Oracle.deploy(await usdg.getAddress(), WINDOW, admin.address);
        const pool = await Pool.deploy(asset, await usdg.getAddress(), WINDOW + 1, 0);
        await pool.setTick(TICK);
        await oracle.setPool(asset, await pool.getAddress());
        expect(await oracle.poolOf(asset)).to.deep.equal([await pool.getAddress(), true, 18n, usdgDecimals]);
        const expected = price18Bounds(TICK, true, 18, Number(usdgDecimals));
        expect(isClose(await oracle.price(asset), expected)).to.equal(true);
      }
    });

    it("lets only the owner administer, and hands ownership over in two steps", async () => {
      const { oracle, stock, pool, stranger, updater } = await loadFixture(deployFixture);
      const asset = await stock.getAddress();
      const asStranger = oracle.connect(stranger);
      const poolAddress = await pool.getAddress();
      const calls = [
        () => asStranger.setPool(asset, poolAddress),
        () => asStranger.setUpdater(asset, stranger.address),
        () => asStranger.setMaxStaleness(1),
        () => asStranger.setRequiredSpan(WINDOW),
      ];
      for (const call of calls) {
        await expect(call())
          .to.be.revertedWithCustomError(oracle, "OwnableUnauthorizedAccount")
          .withArgs(stranger.address);
      }
      await oracle.transferOwnership(updater.address);
      await expect(oracle.connect(updater).setMaxStaleness(1))
        .to.be.revertedWithCustomError(oracle, "OwnableUnauthorizedAccount")
        .withArgs(updater.address);
      await oracle.connect(updater).acceptOwnership();
      await expect(oracle.connect(updater).setMaxStaleness(7))
        .to.emit(oracle, "MaxStalenessSet")
        .withArgs(HOUR, 7);
    });
  });

  describe("a pool, once set, always wins", () => {
    async function poolSetFixture() {
      const f = await deployFixture();
      const asset = await f.stock.getAddress();
      // The asset had pushed prices before its pool was set.
      await f.oracle.setUpdater(asset, f.updater.address);
      await f.oracle.connect(f.updater).pushPrice(asset, 200n * 10n ** 18n);
      await f.oracle.setPool(asset, await f.pool.getAddress());
      // Another pool of the same pair that someone would like to swap in.
      const rival = await f.Pool.deploy(asset, await f.usdg.getAddress(), 6000, 0);
      await rival.setTick(TICK + 1000);
      return { ...f, asset, rival };
    }

    /** Every state-changing function of the oracle, each tried against the asset with a pool. */
    const attempts: Record<string, (f: Awaited<ReturnType<typeof poolSetFixture>>) => Promise<unknown>> = {
      setPool: async (f) => {
        for (const candidate of [f.rival, f.pool]) {
          await expect(f.oracle.setPool(f.asset, await candidate.getAddress()))
            .to.be.revertedWithCustomError(f.oracle, "PriceOracleHasPool")
            .withArgs(f.asset, await f.pool.getAddress());
        }
      },
      setUpdater: async (f) => {
        for (const updater of [f.updater.address, f.admin.address, ethers.ZeroAddress]) {
          await f.oracle.setUpdater(f.asset, updater);
          if (updater === ethers.ZeroAddress) continue;
          await expect(f.oracle.connect(await ethers.getSigner(updater)).pushPrice(f.asset, 1n))
            .to.be.revertedWithCustomError(f.oracle, "PriceOracleHasPool")
            .withArgs(f.asset, await f.pool.getAddress());
        }
      },
      pushPrice: async (f) => {
        await expect(f.oracle.connect(f.updater).pushPrice(f.asset, 1n))
          .to.be.revertedWithCustomError(f.oracle, "PriceOracleHasPool")
          .withArgs(f.asset, await f.pool.getAddress());
      },
      setMaxStaleness: async (f) => {
        for (const limit of [0, 1, 2 ** 32 - 1]) await f.oracle.setMaxStaleness(limit);
      },
      setRequiredSpan: async (f) => {
        // A span the pool no longer meets keeps it (coverage shows the shortfall), never drops it.
        await f.oracle.setRequiredSpan(65_534);
        const { guaranteed, needed } = await f.oracle.coverage(f.asset);
        expect([guaranteed, needed]).to.deep.equal([BigInt(WINDOW), 65_534n]);
        await f.oracle.setRequiredSpan(WINDOW);
      },
      transferOwnership: async (f) => {
        await f.oracle.transferOwnership(f.stranger.address);
        await expect(f.oracle.connect(f.stranger).setPool(f.asset, await f.rival.getAddress()))
          .to.be.revertedWithCustomError(f.oracle, "OwnableUnauthorizedAccount")
          .withArgs(f.stranger.address);
      },
      acceptOwnership: async (f) => {
        await f.oracle.transferOwnership(f.stranger.address);
        await f.oracle.connect(f.stranger).acceptOwnership();
        await expect(f.oracle.connect(f.stranger).setPool(f.asset, await f.rival.getAddress()))
          .to.be.revertedWithCustomError(f.oracle, "PriceOracleHasPool")
          .withArgs(f.asset, await f.pool.getAddress());
      },
      renounceOwnership: async (f) => {
        await f.oracle.renounceOwnership();
        expect(await f.oracle.owner()).to.equal(ethers.ZeroAddress);
      },
    };

    it("has an attempt for every function that changes state (a new one must be added here)", async () => {
      const { oracle } = await loadFixture(poolSetFixture);
      const mutating = oracle.interface.fragments
        .filter((x): x is FunctionFragment => x.type === "function")
        .filter((x) => x.stateMutability !== "view" && x.stateMutability !== "pure")
        .map((x) => x.name)
        .sort();
      expect(mutating).to.deep.equal(Object.keys(attempts).sort());
    });

    for (const [name, attempt] of Object.entries(attempts)) {
      it(`${name} neither removes nor replaces the pool, nor brings pushed prices back`, async () => {
        const f = await loadFixture(poolSetFixture);
        const before = await f.oracle.price(f.asset);
        expect(isClose(before, price18Bounds(TICK, true, 18, 6))).to.equal(true);
        await attempt(f);
        expect((await f.oracle.poolOf(f.asset))[0]).to.equal(await f.pool.getAddress());
        expect(await f.oracle.price(f.asset)).to.equal(before);
        const now = BigInt(await time.latest());
        expect(await f.oracle.priceAt(f.asset, now - 600n)).to.equal(before);
      });
    }
  });

  describe("coverage", () => {
    it("reports the span the buffer holds now, what its cardinality guarantees, and what is required", async () => {
      const { oracle, stock, pool } = await loadFixture(deployFixture);
      const asset = await stock.getAddress();
      await expect(oracle.coverage(asset))
        .to.be.revertedWithCustomError(oracle, "PriceOracleNoPool")
        .withArgs(asset);
      await oracle.setPool(asset, await pool.getAddress());
      const oldest = await pool.oldest();
      let now = BigInt(await time.latest());
      expect(await oracle.coverage(asset)).to.deep.equal([now - oldest, BigInt(WINDOW), BigInt(WINDOW)]);
      await time.increase(100);
      now = BigInt(await time.latest());
      expect((await oracle.coverage(asset)).span).to.equal(now - oldest);
    });
  });

  describe("pool reads", () => {
    it("answers now and at past moments from the accumulator, and rejects the future", async () => {
      const { oracle, stock, pool } = await loadFixture(deployFixture);
      const asset = await stock.getAddress();
      await oracle.setPool(asset, await pool.getAddress());
      const now = BigInt(await time.latest());
      const spot = await oracle.price(asset);
      expect(await oracle.priceAt(asset, now)).to.equal(spot);
      expect(await oracle.priceAt(asset, now - 1000n)).to.equal(spot);
      await expect(oracle.priceAt(asset, now + 1n))
        .to.be.revertedWithCustomError(oracle, "PriceOracleFutureTimestamp")
        .withArgs(now + 1n, now);
    });

    it("reports a window the buffer no longer covers, with the oldest covered window end", async () => {
      const { oracle, stock, pool } = await loadFixture(deployFixture);
      const asset = await stock.getAddress();
      await oracle.setPool(asset, await pool.getAddress());
      const oldest = await pool.oldest();
      const oldestCovered = oldest + BigInt(WINDOW);
      expect(await oracle.priceAt(asset, oldestCovered)).to.be.greaterThan(0n);
      await expect(oracle.priceAt(asset, oldestCovered - 1n))
        .to.be.revertedWithCustomError(oracle, "PriceOracleWindowNotCovered")
        .withArgs(asset, oldestCovered - 1n, oldestCovered);
      // A pool with no observation at all (observe reverts "I") reports 0; the ring that has not
      // wrapped yet (oldest in slot 0) is exercised on the replica.
      await pool.setObservations(0, 0, 0);
      const now = await time.latest();
      await expect(oracle.price(asset))
        .to.be.revertedWithCustomError(oracle, "PriceOracleWindowNotCovered")
        .withArgs(asset, now, 0);
    });

    it("does not report a reasonless observe() failure (out of gas) as an uncovered window", async () => {
      const { oracle, stock, pool } = await loadFixture(deployFixture);
      const asset = await stock.getAddress();
      await oracle.setPool(asset, await pool.getAddress());
      await pool.setFailSilently(true);
      await expect(oracle.price(asset))
        .to.be.revertedWithCustomError(oracle, "PriceOracleObserveFailed")
        .withArgs(await pool.getAddress());
      // Nor a revert with any reason but Uniswap's own "OLD" and "I".
      await pool.setFailSilently(false);
      await pool.setFailOddly(true);
      await expect(oracle.price(asset))
        .to.be.revertedWithCustomError(oracle, "PriceOracleObserveFailed")
        .withArgs(await pool.getAddress());
    });

    it("reports windows older than uint32 seconds as not covered", async () => {
      const { oracle, stock, pool } = await loadFixture(deployFixture);
      const asset = await stock.getAddress();
      await oracle.setPool(asset, await pool.getAddress());
      const snapshot = await takeSnapshot();
      try {
        const oldest = await pool.oldest();
        await time.increaseTo(2n ** 32n + 1000n);
        await expect(oracle.priceAt(asset, 999n))
          .to.be.revertedWithCustomError(oracle, "PriceOracleWindowNotCovered")
          .withArgs(asset, 999n, oldest + BigInt(WINDOW));
      } finally {
        await snapshot.restore();
      }
    });
  });

  describe("pushed prices", () => {
    const P1 = 180n * 10n ** 18n;
    const P2 = 181n * 10n ** 18n;
    const P3 = 179n * 10n ** 18n;

    async function pushedFixture() {
      const fixture = await deployFixture();
      const asset = await fixture.other.getAddress();
      await fixture.oracle.setUpdater(asset, fixture.updater.address);
      return { ...fixture, asset, asUpdater: fixture.oracle.connect(fixture.updater) };
    }

    it("names updaters with UpdaterSet and rejects pushes from anyone else", async () => {
      const { oracle, asset, updater, stranger, admin } = await loadFixture(pushedFixture);
      expect(await oracle.updaterOf(asset)).to.equal(updater.address);
      for (const signer of [stranger, admin]) {
        await expect(oracle.connect(signer).pushPrice(asset, P1))
          .to.be.revertedWithCustomError(oracle, "PriceOracleUnauthorizedUpdater")
          .withArgs(asset, signer.address);
      }
      await expect(oracle.setUpdater(asset, ethers.ZeroAddress))
        .to.emit(oracle, "UpdaterSet")
        .withArgs(asset, updater.address, ethers.ZeroAddress);
      await expect(oracle.connect(updater).pushPrice(asset, P1))
        .to.be.revertedWithCustomError(oracle, "PriceOracleUnauthorizedUpdater")
        .withArgs(asset, updater.address);
    });

    it("rejects a zero price and one above uint160", async () => {
      const { oracle, asset, asUpdater } = await loadFixture(pushedFixture);
      await expect(asUpdater.pushPrice(asset, 0))
        .to.be.revertedWithCustomError(oracle, "PriceOracleInvalidPrice")
        .withArgs(asset, 0);
      await expect(asUpdater.pushPrice(asset, 2n ** 160n))
        .to.be.revertedWithCustomError(oracle, "PriceOracleInvalidPrice")
        .withArgs(asset, 2n ** 160n);
      await expect(asUpdater.pushPrice(asset, 2n ** 160n - 1n)).to.emit(oracle, "PricePushed");
      expect(await oracle.price(asset)).to.equal(2n ** 160n - 1n);
    });

    it("keeps a checkpoint history that priceAt reads at any past moment", async () => {
      const { oracle, asset, asUpdater, updater } = await loadFixture(pushedFixture);
      await expect(oracle.price(asset))
        .to.be.revertedWithCustomError(oracle, "PriceOracleNoSource")
        .withArgs(asset);
      const tx1 = await asUpdater.pushPrice(asset, P1);
      const t1 = BigInt(await time.latest());
      await expect(tx1).to.emit(oracle, "PricePushed").withArgs(asset, updater.address, P1, t1);
      await time.increase(600);
      await asUpdater.pushPrice(asset, P2);
      const t2 = BigInt(await time.latest());
      await time.increase(600);
      await asUpdater.pushPrice(asset, P3);
      const t3 = BigInt(await time.latest());
      expect(await oracle.price(asset)).to.equal(P3);
      expect(await oracle.priceAt(asset, t1)).to.equal(P1);
      expect(await oracle.priceAt(asset, t2 - 1n)).to.equal(P1);
      expect(await oracle.priceAt(asset, t2)).to.equal(P2);
      expect(await oracle.priceAt(asset, t3 - 1n)).to.equal(P2);
      expect(await oracle.priceAt(asset, t3)).to.equal(P3);
      await expect(oracle.priceAt(asset, t1 - 1n))
        .to.be.revertedWithCustomError(oracle, "PriceOracleWindowNotCovered")
        .withArgs(asset, t1 - 1n, t1);
      await expect(oracle.priceAt(asset, t3 + 1n))
        .to.be.revertedWithCustomError(oracle, "PriceOracleFutureTimestamp")
        .withArgs(t3 + 1n, t3);
    });

    it("refuses a price older than maxStaleness, now and in the past", async () => {
      const { oracle, asset, asUpdater } = await loadFixture(pushedFixture);
      await asUpdater.pushPrice(asset, P1);
      const t1 = BigInt(await time.latest());
      await time.increase(2 * HOUR);
      await asUpdater.pushPrice(asset, P2);
      expect(await oracle.priceAt(asset, t1 + BigInt(HOUR))).to.equal(P1);
      await expect(oracle.priceAt(asset, t1 + BigInt(HOUR) + 1n))
        .to.be.revertedWithCustomError(oracle, "PriceOracleStalePrice")
        .withArgs(asset, t1, t1 + BigInt(HOUR) + 1n, HOUR);
      await time.increase(HOUR + 1);
      const now = BigInt(await time.latest());
      await expect(oracle.price(asset))
        .to.be.revertedWithCustomError(oracle, "PriceOracleStalePrice")
        .withArgs(asset, now - BigInt(HOUR) - 1n, now, HOUR);
      await expect(oracle.setMaxStaleness(2 * HOUR))
        .to.emit(oracle, "MaxStalenessSet")
        .withArgs(HOUR, 2 * HOUR);
      expect(await oracle.price(asset)).to.equal(P2);
    });

    it("gives way to a pool once one is set, for good", async () => {
      const { oracle, asset, asUpdater, usdg, Pool } = await loadFixture(pushedFixture);
      await asUpdater.pushPrice(asset, P1);
      const pushedAt = BigInt(await time.latest());
      const pool = await Pool.deploy(asset, await usdg.getAddress(), 1000, pushedAt - BigInt(HOUR));
      await pool.setTick(TICK);
      await oracle.setPool(asset, await pool.getAddress());
      const fromPool = await oracle.price(asset);
      expect(fromPool).to.not.equal(P1);
      expect(isClose(fromPool, price18Bounds(TICK, true, 18, 6))).to.equal(true);
      // The pool answers for past moments too, even those that had a pushed price.
      expect(await oracle.priceAt(asset, pushedAt)).to.equal(fromPool);
      await expect(asUpdater.pushPrice(asset, P2))
        .to.be.revertedWithCustomError(oracle, "PriceOracleHasPool")
        .withArgs(asset, await pool.getAddress());
    });

    it("keeps one checkpoint per second: a second push in the same block replaces the first", async () => {
      const { oracle, asset, asUpdater } = await loadFixture(pushedFixture);
      await ethers.provider.send("evm_setAutomine", [false]);
      try {
        await asUpdater.pushPrice(asset, P1);
        await asUpdater.pushPrice(asset, P2);
        await ethers.provider.send("evm_mine", []);
      } finally {
        await ethers.provider.send("evm_setAutomine", [true]);
      }
      const now = BigInt(await time.latest());
      expect(await oracle.priceAt(asset, now)).to.equal(P2);
      await expect(oracle.priceAt(asset, now - 1n))
        .to.be.revertedWithCustomError(oracle, "PriceOracleWindowNotCovered")
        .withArgs(asset, now - 1n, now);
    });
  });
});
