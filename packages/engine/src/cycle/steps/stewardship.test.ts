import { expect } from "chai";
import { seal } from "@augur/scorer";
import { sql } from "kysely";
import { ReorgTooDeepError } from "../../indexer/errors";
import type { Store } from "../../store/open";
import { listStewardshipDays } from "../../store/queries/stewardship";
import { isAppendOnlyViolation } from "../../store/errors";
import { testBackends } from "../../../test-support/store/testing";
import { TokenTransferEvents } from "../../stewardship/events";
import {
  addr,
  DAY,
  fakeSource,
  HISTORY_DAY0,
  OPERATOR,
  POOL,
  TOKEN,
  writeScriptedHistory,
} from "../../../test-support/stewardship/testing";
import { StewardshipScopeError } from "../../stewardship/errors";
import { runCycle } from "../run";
import { anchorStep, stewardshipStep } from "./index";
import { recordStewardshipDays } from "../../stewardship/days";

for (const backend of testBackends()) {
  describe(`cycle: sealed daily stewardship records on ${backend.name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await backend.open();
      await writeScriptedHistory(store);
    });
    afterEach(async () => store.close());

    it("records nothing before the first midnight under the confirmed chain, and says so", async () => {
      const source = fakeSource();
      source.finalThrough = HISTORY_DAY0 + DAY - 1;
      const lines: string[] = [];
      expect(
        await recordStewardshipDays(store, source, HISTORY_DAY0 + 5 * DAY, (l) => lines.push(l)),
      ).to.deep.equal([]);
      expect(lines.join("\n")).to.contain("no day closed (next 2027-01-16");
      // The confirmed chain is past midnight but the clock is not: still nothing.
      source.finalThrough = HISTORY_DAY0 + 3 * DAY;
      expect(await recordStewardshipDays(store, source, HISTORY_DAY0 + DAY - 1)).to.deep.equal([]);
      expect(await store.log.size(store.db)).to.equal(0);
    });

    it("traces funding through the stored USDG transfers: two wallets funded in USDG that wash are a (c) cluster", async () => {
      const USDG = addr("usdg");
      let block = 1000;
      const place = (time: number) => ({
        chain_id: 31337,
        block_number: ++block,
        block_hash: `0x${(block + 9000).toString(16).padStart(64, "0")}`,
        block_timestamp: time,
        tx_hash: `0x${(block + 0xa000).toString(16).padStart(64, "0")}`,
      });
      const d1 = HISTORY_DAY0 + DAY;
      const row = (token: string, from: string, to: string, time: number, amount: bigint) => ({
        token,
        from_address: from,
        to_address: to,
        amount: amount.toString(),
        ...place(time),
        log_index: 0,
      });
      // sid funds cora and dora in USDG; cora buys 100 tokens, dora sells 95: net 5 of gross 195.
      const T = 10n ** 18n;
      const rows = [
        row(USDG, addr("sid"), addr("cora"), d1 + 60, 5_000n * 10n ** 6n),
        row(USDG, addr("sid"), addr("dora"), d1 + 61, 5_000n * 10n ** 6n),
        row(TOKEN, addr("cora"), addr("dora"), HISTORY_DAY0 + 30, 0n), // a transfer of nothing funds nothing
      ];
      const swapAt = (taker: string, side: "buy" | "sell", time: number, tokens: bigint) => {
        const at = place(time);
        const [from, to] = side === "buy" ? [POOL, taker] : [taker, POOL];
        rows.push({
          token: TOKEN,
          from_address: from,
          to_address: to,
          amount: tokens.toString(),
          ...at,
          log_index: 0,
        });
        return {
          pool: POOL,
          sender: addr("router"),
          recipient: taker,
          amount0: (side === "buy" ? -tokens : tokens).toString(),
          amount1: (side === "buy" ? 40n : -38n).toString() + "000000",
          ...at,
          log_index: 1,
        };
      };
      const swaps = [
        swapAt(addr("cora"), "buy", d1 + 7200, 100n * T),
        swapAt(addr("dora"), "sell", d1 + 9000, 95n * T),
      ];
      await store.db.insertInto("stewardship_transfers").values(rows).execute();
      await store.db.insertInto("stewardship_swaps").values(swaps).execute();

      const source = fakeSource();
      source.finalThrough = HISTORY_DAY0 + 2 * DAY;
      const withoutUsdg = await backend.open();
      try {
        await writeScriptedHistory(withoutUsdg);
        await withoutUsdg.db.insertInto("stewardship_transfers").values(rows).execute();
        await withoutUsdg.db.insertInto("stewardship_swaps").values(swaps).execute();
        await recordStewardshipDays(withoutUsdg, source, HISTORY_DAY0 + 9 * DAY);
        const [, blind] = await listStewardshipDays(withoutUsdg.db);
        expect(blind!.body.evidence.map((e) => e.criterion)).to.deep.equal(["b"]); // the token alone shows no funder
      } finally {
        await withoutUsdg.close();
      }

      const withUsdg = { ...source, scope: { ...source.scope, usd: USDG } };
      await recordStewardshipDays(store, withUsdg, HISTORY_DAY0 + 9 * DAY);
      const [, day1] = await listStewardshipDays(store.db);
      const funded = day1!.body.evidence.filter((e) => e.criterion === "c");
      expect(funded.map((e) => [e.cluster, e.measures.source, e.volumeUsd])).to.deep.equal([
        [[addr("cora"), addr("dora"), addr("sid")].sort(), addr("sid"), 78],
      ]);
    });

    it("seals one record per closed day, oldest first, in the log, once; later days extend the series", async () => {
      const source = fakeSource();
      source.finalThrough = HISTORY_DAY0 + 2 * DAY + 7200; // days 0 and 1 closed, day 2 open
      const first = await recordStewardshipDays(store, source, HISTORY_DAY0 + 9 * DAY);
      expect(first).to.deep.equal(["2027-01-16", "2027-01-17"]);
      expect(await recordStewardshipDays(store, source, HISTORY_DAY0 + 9 * DAY)).to.deep.equal([]);

      source.finalThrough = HISTORY_DAY0 + 3 * DAY;
      expect(await recordStewardshipDays(store, source, HISTORY_DAY0 + 9 * DAY)).to.deep.equal([
        "2027-01-18",
      ]);
      const days = await listStewardshipDays(store.db);
      expect(
        days.map((d) => [d.day, d.body.holders, d.body.organicVolumeUsd, d.body.excludedVolumeUsd]),
      ).to.deep.equal([
        ["2027-01-16", 3, 600, 0],
        ["2027-01-17", 3, 100, 300],
        ["2027-01-18", 2, 0, 0],
      ]);
      const day1 = days[1]!.body;
      expect(day1).to.include({
        version: "stewardship/v1",
        asOf: HISTORY_DAY0 + 2 * DAY,
        holdersArmed: false,
        holdersWindowStart: null,
        holdersTrigger: false,
        volumeDaysBelow: 1,
        volumeTrigger: false,
        bothTrigger: false,
        state: "normal",
        stateSince: null,
        chainId: 31337,
        token: TOKEN,
      });
      expect(day1.pools).to.deep.equal([POOL]);
      expect(day1.excluded).to.deep.equal([OPERATOR]);
      expect(day1.evidence.map((e) => [e.criterion, e.cluster, e.swaps.length, e.volumeUsd])).to.deep.equal([
        ["b", [], 6, 300], // rita round-trips alone: in aggregate, unnamed
      ]);
      // The day is still in the 30-day window on day 2: its evidence is published again there.
      expect(days[2]!.body.evidence.map((e) => e.criterion)).to.deep.equal(["b"]);
      expect(days[2]!.body.volumeDaysBelow).to.equal(2);
      // Each body hashes to its seal, which is the log's leaf at its index.
      for (const d of days) {
        expect(seal(d.body)).to.equal(d.seal);
        expect(await store.log.leafIndexOf(store.db, d.seal)).to.equal(d.leafIndex);
      }
      expect(days.map((d) => d.leafIndex)).to.deep.equal([0, 1, 2]);
    });

    it("runs as the cycle's optional step after scoring, reporting the days it sealed", async () => {
      const source = fakeSource();
      source.finalThrough = HISTORY_DAY0 + DAY;
      const report = await runCycle({
        store,
        steps: [anchorStep(), stewardshipStep(source)],
        now: () => HISTORY_DAY0 + DAY + 60,
      });
      expect(report.stewardshipDays).to.deep.equal(["2027-01-16"]);
      expect(source.syncs).to.equal(1);
      const without = await runCycle({ store, steps: [anchorStep()], now: () => HISTORY_DAY0 + 4 * DAY });
      expect(without.stewardshipDays).to.deep.equal([]);
    });

    it("is append-only: the database refuses to edit or delete a sealed day", async () => {
      const source = fakeSource();
      source.finalThrough = HISTORY_DAY0 + DAY;
      await recordStewardshipDays(store, source, HISTORY_DAY0 + DAY);
      for (const statement of [
        sql`UPDATE stewardship_days SET state = 'wind-down'`,
        sql`DELETE FROM stewardship_days`,
      ]) {
        const error = await statement.execute(store.db).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(isAppendOnlyViolation(error), String(error)).to.equal(true);
      }
      expect(await listStewardshipDays(store.db)).to.have.length(1);
    });

    it("refuses to mix another token into the series", async () => {
      const source = fakeSource();
      source.finalThrough = HISTORY_DAY0 + DAY;
      await recordStewardshipDays(store, source, HISTORY_DAY0 + DAY);
      const other = fakeSource(4663);
      other.finalThrough = HISTORY_DAY0 + 2 * DAY;
      const error = await recordStewardshipDays(store, other, HISTORY_DAY0 + 2 * DAY).catch(
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(StewardshipScopeError);
      expect(String((error as Error).message))
        .to.contain("on chain 31337")
        .and.to.contain("on chain 4663");
    });

    it("rolls back unsealed blocks on a reorg but refuses one below a sealed day's confirmed block", async () => {
      const source = fakeSource(); // its days are measured up to block 100
      source.finalThrough = HISTORY_DAY0 + DAY;
      await recordStewardshipDays(store, source, HISTORY_DAY0 + DAY);
      const events = new TokenTransferEvents({ chainId: 31337, address: TOKEN }, 3);
      const error = await store.db
        .transaction()
        .execute((trx) => events.rollback(trx, 99))
        .catch((e: unknown) => e);
      expect(error).to.be.instanceOf(ReorgTooDeepError);
      expect((error as Error).message).to.contain("block 100 was reorganised after a stewardship day");
      const before = await store.db.selectFrom("stewardship_transfers").select("block_number").execute();
      const removed = await store.db.transaction().execute((trx) => events.rollback(trx, 100));
      expect(removed).to.equal(0); // the scripted history sits in blocks 1–21
      const kept = await store.db.selectFrom("stewardship_transfers").select("block_number").execute();
      expect(kept).to.have.length(before.length);
    });
  });
}

describe("cycle: stewardship rollback without sealed days", () => {
  it("deletes the transfers above the canonical block", async () => {
    const [backend] = testBackends();
    const store = await backend!.open();
    try {
      await writeScriptedHistory(store);
      const events = new TokenTransferEvents({ chainId: 31337, address: TOKEN }, 1);
      const total = (await store.db.selectFrom("stewardship_transfers").select("block_number").execute())
        .length;
      const removed = await store.db.transaction().execute((trx) => events.rollback(trx, 5));
      const left = await store.db.selectFrom("stewardship_transfers").select("block_number").execute();
      expect(removed).to.equal(total - 5);
      expect(left.every((r) => r.block_number <= 5)).to.equal(true);
    } finally {
      await store.close();
    }
  });
});
