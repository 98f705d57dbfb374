import { expect } from "chai";
import {
  canonicalJson,
  type Hex32,
  MONKEYS,
  parseRefereeInput,
  refereeLeaderboard,
  refereeLeaderboardJson,
  seal,
} from "@augur/scorer";
import { storeSealedCloses } from "../../closes/cache";
import { HOUR_SECONDS } from "../../closes/record";
import { appendEngineRecords, type EngineRecord } from "../../store/append";
import { addTestSeason, SEASON_START, TEST_NOW } from "../../../test-support/records/testing";
import type { RefereeBoardBody } from "../../referee/board";
import { epochInput } from "../../referee/input";
import { testCallRecord, testCloses } from "../../../test-support/referee/testing";
import { isAppendOnlyViolation } from "../../store/errors";
import type { Store } from "../../store/open";
import { findSeason } from "../../store/queries/seasons";
import { testBackends } from "../../../test-support/store/testing";
import { REFEREE_TAIL_SECONDS } from "../../referee/seal";
import { runCycle } from "../run";
import { anchorStep, refereeStep } from "./index";
import { FakeKeeper } from "../../../test-support/cycle/testing";

const TSLA = "0x1111111111111111111111111111111111111111";
const AAPL = "0x2222222222222222222222222222222222222222";
const H0 = SEASON_START / HOUR_SECONDS;
const price = (asset: string) => (hour: number) =>
  (asset === TSLA ? 180 : 230) * (1 + 0.03 * Math.sin(hour / 5) + 0.001 * (hour % 7));

/** Three agents' calls over the season's first day (ada: 12 calls, bob: 5, cy: 2). */
function seasonCalls(seasonId = "s1"): EngineRecord[] {
  const calls: EngineRecord[] = [];
  let callId = 1;
  for (const [agentId, n] of [
    ["ada", 12],
    ["bob", 5],
    ["cy", 2],
  ] as const) {
    for (let i = 0; i < n; i++) {
      calls.push(
        testCallRecord({
          agentId,
          seasonId,
          callId: callId++,
          asset: i % 3 === 0 ? AAPL : TSLA,
          revealedAt: (H0 + 1 + i + agentId.length) * HOUR_SECONDS - 600,
          windowHours: 1 + (i % 2) * 3,
          direction: (i + agentId.length) % 2 === 0 ? "up" : "down",
          confidenceBps: 5000 + 400 * (i % 4),
        }),
      );
    }
  }
  return calls;
}

async function boards(store: Store) {
  return store.db.selectFrom("referee_boards").selectAll().orderBy("as_of").execute();
}

for (const backend of testBackends()) {
  describe(`hourly cycle: sealed referee boards on ${backend.name}`, () => {
    let store: Store;
    let now = TEST_NOW;
    let keeper: FakeKeeper;
    const cycle = () => runCycle({ store, steps: [anchorStep(keeper), refereeStep()], now: () => now });
    const addCalls = (calls: EngineRecord[]) =>
      store.db.transaction().execute((trx) => appendEngineRecords(trx, calls, now));
    const addCloses = (fromHour: number, toHour: number) =>
      Promise.all(
        [TSLA, AAPL].map((a) => storeSealedCloses(store, testCloses(a, fromHour, toHour, price(a)), now)),
      );

    beforeEach(async () => {
      now = TEST_NOW;
      keeper = new FakeKeeper();
      store = await backend.open();
      await addTestSeason(store);
      await addCalls(seasonCalls());
      await addCloses(H0, TEST_NOW / HOUR_SECONDS);
    });
    afterEach(async () => store.close());

    it("seals the board the scorer's referee computes from the anchored input, once per hour", async () => {
      const first = await cycle();
      expect(first.refereeBoards).to.equal(1);
      const [row, ...more] = await boards(store);
      expect(more).to.deep.equal([]);
      // The stored text is what was sealed; the seal is a leaf after the anchor the input was read under.
      const body = JSON.parse(row!.body) as RefereeBoardBody;
      expect([canonicalJson(body), seal(body)]).to.deep.equal([row!.body, row!.seal]);
      expect(await store.log.leafIndexOf(store.db, row!.seal as Hex32)).to.equal(row!.leaf_index);
      expect(row!.log_size).to.equal(first.anchored!.treeSize);
      expect(row!.leaf_index).to.equal(first.anchored!.treeSize);
      expect(body).to.deep.include({ format: "augur-referee-board/v1", epoch: "s1", asOf: first.asOf });
      expect(body.inputs).to.deep.include({ anchorIndex: 0, treeSize: row!.log_size, waitingCalls: 0 });

      // Equal to the scorer's referee on the input rebuilt from the same anchored rows.
      const season = (await findSeason(store.db, "s1"))!;
      const { input } = await epochInput(store.db, season, row!.log_size);
      expect(input.predictions).to.have.length(19);
      expect([body.inputSeal, row!.input_seal]).to.deep.equal([seal(input), seal(input)]);
      const expected = refereeLeaderboardJson(refereeLeaderboard(parseRefereeInput(input)), seal(input));
      expect(body.leaderboard).to.deep.equal(JSON.parse(JSON.stringify(expected)));
      expect(body.leaderboard.agents.map((a) => [a.agent, a.status])).to.have.deep.members([
        ["ada", "ranked"],
        ["bob", "proving"],
        ["cy", "proving"],
      ]);
      expect(body.cohorts.map((c) => c.agent)).to.deep.equal(body.leaderboard.agents.map((a) => a.agent));
      for (const [i, c] of body.cohorts.entries()) {
        expect(c.histogram.counts.reduce((x, y) => x + y, 0)).to.equal(MONKEYS);
        expect((100 * (c.monkeys_below + c.monkeys_equal / 2)) / MONKEYS).to.equal(
          body.leaderboard.agents[i]!.percentile,
        );
      }

      now += 60; // same hour: nothing new, in the table or the log
      const size = await store.log.size(store.db);
      expect((await cycle()).refereeBoards).to.equal(0);
      expect(await boards(store)).to.have.length(1);
      expect(await store.log.size(store.db)).to.equal(size);

      now += HOUR_SECONDS; // next hour, same anchored closes and calls: the board would restate itself
      expect((await cycle()).refereeBoards).to.equal(0);
      expect(await boards(store)).to.have.length(1);

      now += HOUR_SECONDS; // a new hour's close and a call: a new board, read under the new anchor
      const hour = Math.floor(now / HOUR_SECONDS);
      await addCloses(hour - 1, hour);
      await addCalls([
        testCallRecord({
          agentId: "cy",
          seasonId: "s1",
          callId: 99,
          asset: TSLA,
          revealedAt: (hour - 2) * HOUR_SECONDS - 60,
          windowHours: 1,
          direction: "up",
          confidenceBps: 9000,
        }),
      ]);
      const third = await cycle();
      expect(third.refereeBoards).to.equal(1);
      const latest = (await boards(store)).at(-1)!;
      const next = JSON.parse(latest.body) as RefereeBoardBody;
      expect([latest.as_of, next.inputs.treeSize]).to.deep.equal([third.asOf, third.anchored!.treeSize]);
      expect(next.leaderboard.agents.find((a) => a.agent === "cy")!.scored_calls).to.equal(3);
    });

    it("reads only closes and calls below the anchored size: nothing without an anchor, a pending call waits", async () => {
      const unanchored = await runCycle({ store, steps: [anchorStep(), refereeStep()], now: () => now });
      expect([unanchored.anchored, unanchored.refereeBoards]).to.deep.equal([undefined, 0]);
      expect(await boards(store)).to.deep.equal([]);

      expect((await cycle()).refereeBoards).to.equal(1);
      now += HOUR_SECONDS;
      await addCalls([
        testCallRecord({
          agentId: "bob",
          seasonId: "s1",
          callId: 77,
          asset: AAPL,
          revealedAt: (H0 + 3) * HOUR_SECONDS - 60,
          windowHours: 1,
          direction: "down",
          confidenceBps: 7000,
        }),
      ]);
      keeper.pendingCalls = 1; // the head with the new call is posted, not yet mined
      const pending = await cycle();
      expect(pending.refereeBoards).to.equal(0);
      const [only] = await boards(store);
      expect(only!.log_size).to.be.below(pending.head.treeSize);

      now += HOUR_SECONDS; // mined: the call is anchored, so it is read
      expect((await cycle()).refereeBoards).to.equal(1);
      const latest = JSON.parse((await boards(store)).at(-1)!.body) as RefereeBoardBody;
      expect(latest.leaderboard.agents.find((a) => a.agent === "bob")!.scored_calls).to.equal(6);
    });

    it("refreshes a season until 48 hours after its close, even without calls; boards are append-only", async () => {
      expect(REFEREE_TAIL_SECONDS).to.equal(48 * HOUR_SECONDS);
      await addTestSeason(store, "late", SEASON_START + 2 * HOUR_SECONDS);
      await addTestSeason(store, "tail", SEASON_START + 5 * HOUR_SECONDS);
      now = SEASON_START + 2 * HOUR_SECONDS + REFEREE_TAIL_SECONDS + HOUR_SECONDS; // past late's tail
      const report = await cycle();
      expect(report.refereeBoards).to.equal(2);
      const stored = await boards(store);
      expect(stored.map((b) => b.season_id).sort()).to.deep.equal(["s1", "tail"]);
      const empty = JSON.parse(stored.find((b) => b.season_id === "tail")!.body) as RefereeBoardBody;
      expect([empty.leaderboard.agents, empty.cohorts, empty.leaderboard.mu]).to.deep.equal([[], [], []]);

      const update = store.db.updateTable("referee_boards").set({ body: "{}" }).where("season_id", "=", "s1");
      const remove = store.db.deleteFrom("referee_boards").where("season_id", "=", "s1");
      for (const attempt of [() => update.execute(), () => remove.execute()]) {
        const error = await attempt().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(isAppendOnlyViolation(error), String(error)).to.equal(true);
      }
      expect(await boards(store)).to.have.length(2);
    });
  });
}
