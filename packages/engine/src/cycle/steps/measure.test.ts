import { expect } from "chai";
import { snapshotPoint, tradePoint } from "@augur/records";
import { FakeChain } from "../../../test-support/measure/fake-chain";
import {
  addTestSeason,
  registrationV2,
  SEASON_START as S,
  signV2,
  testWallet,
  TEST_CHAIN_ID,
} from "../../../test-support/records/testing";
import { testBackends } from "../../../test-support/store/testing";
import { ingestRecord } from "../../records/ingest";
import type { Store } from "../../store/open";
import { insertSeason } from "../../store/queries/seasons";
import { loadCarried } from "../../store/queries/carried-balances";
import { reconcilesAt } from "../../measure/carried";
import { AgentRecords, snapshotMessage } from "../../store/agent-records";
import { agentRows } from "../augur-scorer";
import type { AgentInputs } from "../seams";
import { runCycle } from "../run";
import { anchorStep, measureStep } from "./index";

const H = 3600;
const E18 = 10n ** 18n;
const USDG = "0x00000000000000000000000000000000000000a0";
const TSLA = "0x00000000000000000000000000000000000000b0";
const POOL = "0x00000000000000000000000000000000000000c0";
const FUNDER = "0x00000000000000000000000000000000000000d0";
const ELSEWHERE = "0x00000000000000000000000000000000000000e0";
const usdg = (n: number) => BigInt(n) * 1_000_000n;

for (const backend of testBackends()) {
  describe(`measure step on ${backend.name}`, () => {
    let store: Store;
    let chain: FakeChain;
    const alpha = { key: testWallet("agent alpha"), creator: testWallet("creator a") };
    const idle = { key: testWallet("agent idle"), creator: testWallet("creator i") };
    const A = alpha.key.address.toLowerCase();
    const B = idle.key.address.toLowerCase();

    /** The scenario's chain with a USDG of `decimals` (deployments disagree: 6 or 18). */
    function fundedChain(decimals: number): FakeChain {
      const cash = (n: number) => BigInt(n) * 10n ** BigInt(decimals);
      const c = new FakeChain(
        { usdg: USDG, stocks: [{ token: TSLA, pool: POOL }] },
        { [USDG]: decimals, [TSLA]: 18 },
      );
      // Before the season: both wallets funded.
      c.mine(S - 100, [
        { token: USDG, from: FUNDER, to: A, amount: cash(1000) },
        { token: USDG, from: FUNDER, to: B, amount: cash(500) },
        { token: USDG, from: FUNDER, to: POOL, amount: cash(1_000_000) },
        { token: TSLA, from: FUNDER, to: POOL, amount: 10_000n * E18 },
      ]);
      // Hour 1: alpha buys 2 TSLA from the pool for 360 USDG (a trade: no flow).
      c.mine(S + 1000, [
        { token: USDG, from: A, to: POOL, amount: cash(360) },
        { token: TSLA, from: POOL, to: A, amount: 2n * E18 },
      ]);
      // Hour 2: a deposit of 500 and a withdrawal of 100 (flows).
      c.mine(S + H + 400, [
        { token: USDG, from: FUNDER, to: A, amount: cash(500) },
        { token: USDG, from: A, to: ELSEWHERE, amount: cash(100) },
      ]);
      c.mine(S + 3 * H + 5);
      for (const [at, price] of [
        [S, 180n],
        [S + H, 190n],
        [S + 2 * H, 190n],
        [S + 3 * H, 200n],
      ] as const)
        c.setPrice(TSLA, at, price * E18);
      return c;
    }

    /** A fresh store with season s1 measured and both agents registered, wallets bound. */
    async function openSeason() {
      store = await backend.open();
      await addTestSeason(store, "s1", null, "measured");
      for (const [id, who] of [
        ["alpha", alpha],
        ["idle", idle],
      ] as const) {
        await ingestRecord(
          store,
          await signV2(registrationV2(id, who.key, who.creator), who.key, who.creator),
          {
            chainId: TEST_CHAIN_ID,
            now: () => S - 60,
            recordGrace: Infinity,
          },
        );
      }
    }

    beforeEach(async () => {
      await openSeason();
      chain = fundedChain(6);
    });
    afterEach(async () => store.close());

    const cycleAt = (at: number) =>
      runCycle({
        store,
        steps: [measureStep(chain, chain), anchorStep()],
        now: () => at + 60,
        progress: () => {},
      });

    async function snapshotsOf(agentId: string) {
      const rows = await store.db
        .selectFrom("records")
        .select(["body", "seal", "signer"])
        .where("agent_id", "=", agentId)
        .where("kind", "=", "snapshot")
        .orderBy("leaf_index")
        .execute();
      return rows.map((r) => ({
        ...JSON.parse(r.body),
        point: snapshotPoint(r.body, r.seal),
        signer: r.signer,
      }));
    }

    it("seals each wallet's hour as augur-snapshot/v2, equal to an independent computation from balances and prices", async () => {
      const counts = [];
      for (let h = 0; h <= 3; h++) counts.push((await cycleAt(S + h * H)).measured);
      expect(counts).to.deep.equal([2, 3, 2, 2]); // hour 1 adds alpha's trade
      const snaps = await snapshotsOf("alpha");
      expect(snaps.map((s) => s.takenAt)).to.deep.equal([S, S + H, S + 2 * H, S + 3 * H]);
      for (const s of snaps) {
        expect(s).to.include({ format: "augur-snapshot/v2", wallet: A, signer: null });
        const block = await chain.blockAt(s.takenAt);
        expect(s.block).to.deep.equal(block);
        const cash = chain.balanceAt(block.number, A, USDG);
        const shares = chain.balanceAt(block.number, A, TSLA);
        const price = (await chain.priceAt(TSLA, s.takenAt)) as { price18: bigint };
        const stock = (shares * price.price18) / 10n ** 30n;
        expect(BigInt(s.nav)).to.equal(cash + stock);
        expect(s.investedBps).to.equal(cash + stock === 0n ? 0 : Number((stock * 10_000n) / (cash + stock)));
      }
      // The scorer's input reader takes the measured values as it takes signed ones.
      const rows = await store.db
        .selectFrom("records")
        .select("body")
        .where("kind", "=", "snapshot")
        .execute();
      for (const { body } of rows) {
        const { nav, flow, investedBps, takenAt } = JSON.parse(body);
        expect(snapshotMessage(body)).to.deep.equal({ nav, flow, investedBps, takenAt, usdgDecimals: 6 });
      }
      expect(snaps.map((s) => s.nav)).to.deep.equal(["1000000000", "1020000000", "1420000000", "1440000000"]);
      expect(snaps.map((s) => s.flow)).to.deep.equal(["1000000000", "0", "400000000", "0"]);
      // The trade's transfers are with the pool: none of them is a flow.
      expect(snaps[1].transfers).to.deep.equal([]);
      expect(snaps[2].transfers.map((t: { counterparty: string }) => t.counterparty)).to.deep.equal([
        FUNDER,
        ELSEWHERE,
      ]);
    });

    it("flows are no return: the hour with a deposit and a withdrawal returns exactly 0 at an unchanged price", async () => {
      for (let h = 0; h <= 3; h++) await cycleAt(S + h * H);
      const p = (await snapshotsOf("alpha")).map((s) => s.point);
      const r = (i: number) => (p[i].nav - p[i].flow) / p[i - 1].nav - 1;
      expect(r(2)).to.equal(0);
      expect(r(1)).to.be.closeTo(20 / 1000, 1e-12); // the TSLA it bought rose from 180 to 190
    });

    it("seals alpha's swap with the pool as augur-trade/v2, read by the scorer like a signed trade", async () => {
      for (let h = 0; h <= 1; h++) await cycleAt(S + h * H);
      const rows = await store.db.selectFrom("records").selectAll().where("kind", "=", "trade").execute();
      expect(rows).to.have.length(1);
      const body = JSON.parse(rows[0]!.body);
      expect(body).to.deep.include({
        format: "augur-trade/v2",
        agentId: "alpha",
        wallet: A,
        pool: POOL,
        asset: TSLA,
        side: "buy",
        quantity: String(2n * E18),
        usdgDecimals: 6,
        usdgAmount: String(usdg(360)),
        price: String(180n * E18),
        block: 1,
        logIndex: 1,
        executedAt: S + 1000,
      });
      expect(rows[0]!.signer).to.equal(null);
      expect(tradePoint(rows[0]!.body)).to.deep.equal({
        at: S + 1000,
        asset: TSLA,
        side: "buy",
        quantity: 2,
        price: 180,
      });
      expect(await snapshotsOf("idle").then((s) => s.length)).to.equal(2);
    });

    it("with a quoter, a holding is marked no higher than selling it would fetch, and the quote is sealed", async () => {
      chain.quotes.set(TSLA, (amount) => (amount * 150n) / 10n ** 12n); // a thin pool: 150 a share
      await cycleAt(S + H);
      const snap = (await snapshotsOf("alpha")).at(-1)!;
      expect(snap.takenAt).to.equal(S + H);
      expect(snap.holdings).to.deep.equal([
        {
          token: TSLA,
          decimals: 18,
          balance: String(2n * E18),
          price: String(190n * E18),
          sellQuote: "300000000",
          // the only measured holder of TSLA: its pooled total is its own balance
          pooled: { balance: String(2n * E18), sellQuote: "300000000" },
          value: "300000000",
        },
      ]);
      expect(snap.nav).to.equal(String(usdg(640 + 300)));
    });

    it("an 18-decimal USDG gives the same NAV, flow and score inputs in USDG as a 6-decimal one", async () => {
      const measured = async () => {
        for (let h = 0; h <= 3; h++) await cycleAt(S + h * H);
        const rows = await store.db
          .selectFrom("records")
          .select(["kind", "seal", "body"])
          .where("agent_id", "=", "alpha")
          .orderBy("leaf_index")
          .execute();
        const records = new AgentRecords();
        for (const r of rows) records.add(r.kind, r.seal as `0x${string}`, r.body);
        const inputs = agentRows({ agentId: "alpha", records } as AgentInputs);
        const snaps = await snapshotsOf("alpha");
        return {
          stated: snaps.map((s) => [s.usdgDecimals, s.nav]),
          points: snaps.map(({ point: { seal: _, ...p } }) => p),
          // the values the scorer reads (`decimalValue`: a number, or a decimal string parsed)
          snapshots: inputs.snapshots.map(({ seal: _, ...r }) => ({
            ...r,
            nav: Number(r.nav),
            flow: Number(r.flow),
          })),
          trades: inputs.trades.map(({ seal: _, ...t }) => t),
        };
      };
      const six = await measured();
      await store.close();
      store = await backend.open();
      await addTestSeason(store, "s1", null, "measured");
      await ingestRecord(
        store,
        await signV2(registrationV2("alpha", alpha.key, alpha.creator), alpha.key, alpha.creator),
        { chainId: TEST_CHAIN_ID, now: () => S - 60, recordGrace: Infinity },
      );
      chain = fundedChain(18);
      const eighteen = await measured();
      expect(six.stated[0]).to.deep.equal([6, "1000000000"]);
      expect(eighteen.stated[0]).to.deep.equal([18, "1000000000000000000000"]);
      expect(eighteen.points).to.deep.equal(six.points);
      expect(six.points.map((p) => [p.nav, p.flow])).to.deep.equal([
        [1000, 1000],
        [1020, 0],
        [1420, 400],
        [1440, 0],
      ]);
      expect(eighteen.snapshots).to.deep.equal(six.snapshots);
      expect(eighteen.trades).to.deep.equal(six.trades);
      expect(six.trades).to.have.length(1);
    });

    it("an idle wallet has a flat record", async () => {
      for (let h = 0; h <= 3; h++) await cycleAt(S + h * H);
      const snaps = await snapshotsOf("idle");
      expect(snaps.map((s) => [s.nav, s.flow, s.investedBps])).to.deep.equal([
        ["500000000", "500000000", 0],
        ["500000000", "0", 0],
        ["500000000", "0", 0],
        ["500000000", "0", 0],
      ]);
    });

    it("a rerun of the same hour seals nothing twice; an unpriced holding skips that agent and says why", async () => {
      await cycleAt(S + H);
      const size = await store.log.size(store.db);
      expect((await cycleAt(S + H)).measured).to.equal(0);
      expect(await store.log.size(store.db)).to.equal(size);
      chain.prices.delete(`${TSLA}|${S + 2 * H}`);
      const lines: string[] = [];
      await runCycle({
        store,
        steps: [measureStep(chain, chain), anchorStep()],
        now: () => S + 2 * H + 60,
        progress: (l) => lines.push(l),
      });
      expect(lines).to.include(
        `measure: s1/alpha not measured at ${S + 2 * H}: no price for ${TSLA}: PriceOracleNoSource`,
      );
      expect(lines).to.include(`measure: 1 snapshots and trades measured from the chain as of ${S + 2 * H}`);
    });

    /** Every record of the log in leaf order: kind, agent, seal. */
    const logRecords = () =>
      store.db.selectFrom("records").select(["kind", "agent_id", "seal"]).orderBy("leaf_index").execute();

    /** Hour 4: a deposit to alpha inside it, a block after its boundary, TSLA at 210. */
    function addHourFour(c: FakeChain) {
      c.mine(S + 3 * H + 1200, [{ token: USDG, from: FUNDER, to: A, amount: usdg(50) }]);
      c.mine(S + 4 * H + 5);
      c.setPrice(TSLA, S + 4 * H, 210n * E18);
    }

    it("missed hours: after three hours down, one cycle measures them in order at their own blocks, as hour by hour would", async () => {
      addHourFour(chain);
      expect((await cycleAt(S)).measured).to.equal(2);
      const lines: string[] = [];
      const report = await runCycle({
        store,
        steps: [measureStep(chain, chain), anchorStep()],
        now: () => S + 4 * H + 60,
        progress: (l) => lines.push(l),
      });
      expect(report.measured).to.equal(4 * 2 + 1); // hours 1–4 of both agents, and alpha's trade
      expect(lines).to.include(`measure: s1 catches up 4 hours from ${S + H}`);
      const snaps = await snapshotsOf("alpha");
      expect(snaps.map((s) => s.takenAt)).to.deep.equal([0, 1, 2, 3, 4].map((h) => S + h * H));
      for (const [i, s] of snaps.entries()) {
        expect(s.block, `hour ${i} pinned at its own boundary`).to.deep.equal(await chain.blockAt(s.takenAt));
        if (i > 0) expect(s.flowsAfterBlock).to.equal(snaps[i - 1].block.number);
      }
      expect(snaps.map((s) => s.flow)).to.deep.equal(["1000000000", "0", "400000000", "0", "50000000"]);
      const caughtUp = await logRecords();
      expect((await cycleAt(S + 4 * H)).measured, "a rerun measures nothing twice").to.equal(0);
      expect(await logRecords()).to.deep.equal(caughtUp);

      // The same chain measured by a cycle every hour: the same records, in the same order.
      await store.close();
      await openSeason();
      for (let h = 0; h <= 4; h++) await cycleAt(S + h * H);
      const hourly = await logRecords();
      const measuredOnly = (rows: typeof hourly) => rows.filter((r) => r.kind !== "registration");
      expect(measuredOnly(caughtUp)).to.deep.equal(measuredOnly(hourly));
      expect(measuredOnly(hourly)).to.have.length(5 * 2 + 1);
    });

    it("balances are carried from Transfer logs between hours; the state is kept with the mark, so a restart continues from it", async () => {
      addHourFour(chain);
      const lines: string[] = [];
      const cycle = (at: number) =>
        runCycle({
          store,
          steps: [measureStep(chain, chain), anchorStep()],
          now: () => at + 60,
          progress: (l) => lines.push(l),
        });
      await cycle(S + H);
      expect(lines).to.include(`measure: s1 balances at ${S} read in full (no carried state); 0 mismatches`);
      const read = chain.reads.length;
      const head = await store.db.selectFrom("carried_blocks").selectAll().executeTakeFirstOrThrow();
      expect(Number(head.block)).to.equal((await chain.blockAt(S + H)).number);
      // A restart: a new step over the same store carries from the saved block, reading no balance
      // but the rotation's, and the log queries start after the carried block.
      chain.logQueries.length = 0;
      await cycle(S + 4 * H);
      const rotation = (at: number) => [A, B].filter((w) => reconcilesAt(w, at)).length;
      for (let h = 2; h <= 4; h++)
        expect(lines).to.include(
          `measure: s1 balances at ${S + h * H} carried over ${h === 2 ? 2 : h === 4 ? 1 : 0} transfers, ${rotation(S + h * H)} wallets read with balanceOf; 0 mismatches`,
        );
      expect(chain.logQueries[0]!.after).to.equal(Number(head.block));
      const calls = chain.reads.slice(read).reduce((sum, r) => sum + r.calls, 0);
      expect(calls, "balanceOf for the rotation alone").to.equal(
        2 * [2, 3, 4].reduce((n, h) => n + rotation(S + h * H), 0),
      );
      const saved = await loadCarried(store.db, "s1");
      const last = await chain.blockAt(S + 4 * H);
      expect(saved?.block).to.equal(last.number);
      expect([...saved!.balances.values()]).to.deep.equal(
        await chain.readBalances(last.number, [...saved!.balances.keys()], [USDG, TSLA]),
      );
    });

    it("a crash in the middle of a catch-up keeps the hours before it and resumes after them", async () => {
      addHourFour(chain);
      await cycleAt(S);
      const broken = (await chain.blockAt(S + 4 * H)).number; // read first by hour 4
      const flaky = Object.create(chain) as FakeChain;
      flaky.readBalances = async (block, wallets, tokens) => {
        if (block === broken) throw new Error("connection reset");
        return chain.readBalances(block, wallets, tokens);
      };
      const down = runCycle({
        store,
        steps: [measureStep(flaky, chain), anchorStep()],
        now: () => S + 4 * H + 60,
        progress: () => {},
      });
      await down.then(
        () => expect.fail("the cycle should stop at the unreadable hour"),
        (error: Error) => expect(error.message).to.equal("connection reset"),
      );
      expect((await snapshotsOf("alpha")).map((s) => s.takenAt)).to.deep.equal(
        [0, 1, 2, 3].map((h) => S + h * H),
      );
      expect((await cycleAt(S + 4 * H)).measured).to.equal(2); // hour 4 only
      expect((await snapshotsOf("alpha")).map((s) => s.takenAt)).to.deep.equal(
        [0, 1, 2, 3, 4].map((h) => S + h * H),
      );
    });

    it("a season dated before the chain's first block: those hours are reported and passed, the rest measured", async () => {
      await insertSeason(store.db, {
        id: "early",
        name: "Season early",
        starts_at: S - 3 * H,
        ends_at: S + 28 * 86_400,
        closed_at: null,
        created_at: S - 4 * H,
        inputs: "measured",
      });
      const other = { key: testWallet("agent early"), creator: testWallet("creator e") };
      await ingestRecord(
        store,
        await signV2(
          {
            ...registrationV2("early", other.key, other.creator, undefined, "early"),
            registeredAt: S - 4 * H,
          },
          other.key,
          other.creator,
        ),
        { chainId: TEST_CHAIN_ID, now: () => S - 4 * H, recordGrace: Infinity },
      );
      const lines: string[] = [];
      await runCycle({
        store,
        steps: [measureStep(chain, chain), anchorStep()],
        now: () => S + 60,
        progress: (l) => lines.push(l),
      });
      for (const h of [3, 2, 1])
        expect(lines).to.include(
          `measure: early/early not measured at ${S - h * H}: no block at or before ${S - h * H}`,
        );
      expect((await snapshotsOf("early")).map((s) => s.takenAt)).to.deep.equal([S]);
      expect((await cycleAt(S)).measured, "the passed hours are not tried again").to.equal(0);
    });

    it("a declared season is not measured, even for an agent that bound a wallet", async () => {
      await addTestSeason(store, "old", null, "declared");
      const other = { key: testWallet("agent other"), creator: testWallet("creator o") };
      await ingestRecord(
        store,
        await signV2(
          registrationV2("other", other.key, other.creator, undefined, "old"),
          other.key,
          other.creator,
        ),
        { chainId: TEST_CHAIN_ID, now: () => S - 60, recordGrace: Infinity },
      );
      expect((await cycleAt(S)).measured).to.equal(2); // s1's two agents only
      expect(await snapshotsOf("other")).to.deep.equal([]);
    });
  });
}
