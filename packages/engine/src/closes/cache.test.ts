import { expect } from "chai";
import { seal, type Hex32 } from "@augur/scorer";
import { FakeKeeper } from "../../test-support/cycle/testing";
import { CYCLE_SECONDS, runCycle } from "../cycle/run";
import { anchorStep, closesStep } from "../cycle/steps";
import { isAppendOnlyViolation } from "../store/errors";
import type { Store } from "../store/open";
import { testBackends } from "../../test-support/store/testing";
import { BACKFILL_HOURS, cacheHourlyCloses, hoursToRead } from "./cache";
import { closeOf, HOUR_SECONDS, type CloseRecordBody } from "./record";
import { FakeCloses } from "../../test-support/closes/testing";

const TSLA = "0x1111111111111111111111111111111111111111";
const AAPL = "0x2222222222222222222222222222222222222222";
const H0 = 1_800_000_000; // on the hour
const WAD = 10n ** 18n;

/** 180.25 + the hour's index (AAPL at twice that), exact in 18 decimals. */
const price = (asset: string, at: number) =>
  ((18_025n + BigInt((at - H0) / HOUR_SECONDS) * 100n) * WAD * (asset === AAPL ? 2n : 1n)) / 100n;

async function stored(store: Store) {
  return store.db.selectFrom("hourly_closes").selectAll().orderBy("asset").orderBy("at").execute();
}

describe("closes: price18 → close", () => {
  it("parses the exact decimal once: the nearest double, not two roundings", () => {
    expect(closeOf(180_250_000_000_000_000_000n)).to.equal(180.25);
    expect(closeOf(1n)).to.equal(1e-18);
    expect(closeOf(100_000_000_000_000_000n)).to.equal(0.1);
    // Here Number(price18) / 1e18 rounds twice and lands one ulp off: 320.66889253413956.
    expect(closeOf(320_668_892_534_139_591_054n)).to.equal(320.6688925341396);
    expect(Number(320_668_892_534_139_591_054n) / 1e18).to.not.equal(320.6688925341396);
    const big = 123_456_789_123_456_789_123_456_789n;
    expect(closeOf(big)).to.equal(Number("123456789.123456789123456789"));
  });

  it("reads the hour itself, hours missed since the last close, at most a day back", () => {
    expect(hoursToRead(H0, undefined)).to.have.length(BACKFILL_HOURS + 1);
    expect(hoursToRead(H0, H0)).to.deep.equal([]);
    expect(hoursToRead(H0 + 3 * HOUR_SECONDS, H0)).to.deep.equal([1, 2, 3].map((h) => H0 + h * HOUR_SECONDS));
    expect(hoursToRead(H0 + 100 * HOUR_SECONDS, H0)[0]).to.equal(H0 + (100 - BACKFILL_HOURS) * HOUR_SECONDS);
  });
});

for (const backend of testBackends()) {
  describe(`closes cache on ${backend.name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await backend.open();
    });
    afterEach(async () => store.close());

    it("seals each (asset, hour) once, appends the seal, and is idempotent within the hour", async () => {
      // The oracle covers only the cycle's own hour here: the hour before is missing, and the
      // backfill stops there rather than asking about all 24.
      const source = new FakeCloses([TSLA, AAPL], (asset, at) => (at >= H0 ? price(asset, at) : undefined));
      const before = await store.log.size(store.db);
      const first = await cacheHourlyCloses(store, source, H0, H0 + 600);
      expect(first.stored).to.equal(2);
      expect(first.missed.map((m) => [m.asset, m.at])).to.deep.equal([
        [TSLA, H0 - HOUR_SECONDS],
        [AAPL, H0 - HOUR_SECONDS],
      ]);
      expect(source.reads).to.equal(4);
      expect(new Set(first.missed.map((m) => m.reason))).to.deep.equal(
        new Set(["PriceOracleWindowNotCovered"]),
      );
      const rows = await stored(store);
      expect(rows.map((r) => [r.asset, Number(r.at), r.price18, r.close])).to.deep.equal(
        [
          [TSLA, H0, "180250000000000000000", 180.25],
          [AAPL, H0, "360500000000000000000", 360.5],
        ].sort(),
      );
      expect(await store.log.size(store.db)).to.equal(before + 2);
      for (const r of rows) {
        const body = JSON.parse(r.body) as CloseRecordBody;
        expect(body).to.deep.equal({
          format: "augur-close/v1",
          chainId: 31337,
          oracle: source.oracle,
          asset: r.asset,
          at: H0,
          price18: r.price18,
          twapWindow: 300,
        });
        expect(seal(body)).to.equal(r.seal);
        expect(await store.log.leafIndexOf(store.db, r.seal as Hex32)).to.equal(Number(r.leaf_index));
      }

      const reads = source.reads;
      const again = await cacheHourlyCloses(store, source, H0, H0 + 1200);
      expect(again).to.deep.equal({ stored: 0, missed: [] });
      expect(source.reads).to.equal(reads); // nothing even read: the hour is cached
      expect(await stored(store)).to.have.length(2);
      expect(await store.log.size(store.db)).to.equal(before + 2);
    });

    it("a late cycle records the right hours, filling the ones it missed", async () => {
      const source = new FakeCloses([TSLA], price);
      await cacheHourlyCloses(store, source, H0, H0);
      const count = (await stored(store)).length;
      // Three hours later, 40 minutes late: hours 1, 2 and 3, each at its own price.
      const late = await cacheHourlyCloses(
        store,
        source,
        H0 + 3 * HOUR_SECONDS,
        H0 + 3 * HOUR_SECONDS + 2400,
      );
      expect(late.stored).to.equal(3);
      const rows = (await stored(store)).slice(count);
      expect(rows.map((r) => Number(r.at))).to.deep.equal([1, 2, 3].map((h) => H0 + h * HOUR_SECONDS));
      for (const r of rows) expect(BigInt(r.price18)).to.equal(price(TSLA, Number(r.at)));
    });

    it("runs as the cycle's first step, so the cycle's anchor covers the closes; refuses UPDATE and DELETE", async () => {
      const source = new FakeCloses([TSLA], (asset, at) => (at >= H0 ? price(asset, at) : undefined));
      const keeper = new FakeKeeper();
      const report = await runCycle({
        store,
        steps: [closesStep(source), anchorStep(keeper)],
        now: () => H0 + 60,
      });
      expect(report.closes).to.equal(1);
      expect(report.head.treeSize).to.equal(1);
      expect(report.anchored?.treeSize).to.equal(1);
      const again = await runCycle({
        store,
        steps: [closesStep(source), anchorStep(keeper)],
        now: () => H0 + 120,
      });
      expect(again.closes).to.equal(0);
      const next = await runCycle({
        store,
        steps: [closesStep(source), anchorStep(keeper)],
        now: () => H0 + CYCLE_SECONDS + 5,
      });
      expect([next.closes, next.anchored?.treeSize]).to.deep.equal([1, 2]);
      const without = await runCycle({ store, steps: [anchorStep()], now: () => H0 + 2 * CYCLE_SECONDS });
      expect(without.closes).to.equal(0);

      const update = store.db.updateTable("hourly_closes").set({ close: 1 }).where("asset", "=", TSLA);
      const remove = store.db.deleteFrom("hourly_closes").where("asset", "=", TSLA);
      for (const attempt of [() => update.execute(), () => remove.execute()]) {
        const error = await attempt().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(isAppendOnlyViolation(error), String(error)).to.equal(true);
      }
      expect(await stored(store)).to.have.length(2);
    });
  });
}
