import { expect } from "chai";
import fc from "fast-check";
import { formatUnits } from "ethers";
import type { Wallet } from "ethers";
import { type CallRecordBody, snapshotPointOf } from "@augur/records";
import { appendEngineRecords } from "../store/append";
import { ingestRecord, type Submission } from "../records/ingest";
import {
  addTestSeason,
  decision,
  registration,
  sign,
  snapshot,
  testWallet,
  trade,
  TEST_CHAIN_ID,
  TEST_NOW,
} from "../../test-support/records/testing";
import type { Store } from "../store/open";
import { testBackends } from "../../test-support/store/testing";
import { canonicalJson } from "@augur/scorer";
import { sealedRecord } from "@augur/records";
import { AgentRecords, CANONICAL_SNAPSHOT, snapshotMessage } from "../store/agent-records";
import { AugurScorer } from "./augur-scorer";
import { runCycle } from "./run";
import { anchorStep, riskStep, scoreStep } from "./steps";
import { SeasonRowCache, SeasonRows } from "../store/season-rows";
import { FakeKeeper } from "../../test-support/cycle/testing";

const DAY = 86400;

/** Every row a cycle writes, in key order. */
async function written(store: Store) {
  const db = store.db;
  return {
    records: await db.selectFrom("records").selectAll().orderBy("leaf_index").execute(),
    leaves: await db.selectFrom("merkle_leaves").selectAll().orderBy("leaf_index").execute(),
    scores: await db.selectFrom("scores").selectAll().orderBy("agent_id").orderBy("as_of").execute(),
    risk: await db.selectFrom("risk_rows").selectAll().orderBy("vault_id").orderBy("as_of").execute(),
  };
}

describe("decoded snapshot amounts", () => {
  it("are the exact decimal the scorer reads for every base-unit integer of up to 15 digits", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n) + 1n, max: 10n ** 15n - 1n }), (units) => {
        const text = units.toString();
        const point = snapshotPointOf({ takenAt: 1, nav: text, flow: text, investedBps: 0 }, "");
        expect(point.nav).to.equal(Number(formatUnits(text, 6)));
      }),
    );
  });

  it("are read from canonical bodies without parsing, equal to parsing any body", () => {
    const plain = fc.stringMatching(/^[a-z0-9_-]{1,20}$/);
    const text = fc.oneof(plain, fc.string({ unit: "binary", maxLength: 12 }));
    const amount = fc.oneof(
      fc.bigInt({ min: -(2n ** 255n), max: 2n ** 256n - 1n }).map(String),
      fc.string({ maxLength: 8 }),
    );
    let canonical = 0;
    fc.assert(
      fc.property(
        fc.record({
          agentId: text,
          seasonId: text,
          takenAt: fc.maxSafeNat(),
          nav: amount,
          flow: amount,
          investedBps: fc.nat(),
        }),
        fc.nat({ max: 2 ** 31 - 1 }),
        fc.boolean(),
        (message, chainId, spaced) => {
          const record = sealedRecord("Snapshot", chainId, message);
          const body = spaced ? JSON.stringify(record, null, 1) : canonicalJson(record);
          if (CANONICAL_SNAPSHOT.test(body)) canonical += 1;
          const { flow, investedBps, nav, takenAt } = (JSON.parse(body) as { message: typeof message })
            .message;
          expect(snapshotMessage(body)).to.deep.equal({ flow, investedBps, nav, takenAt });
        },
      ),
    );
    expect(canonical).to.be.above(0); // the fast path ran, not only the parse
  });

  it("keep the stored strings of wider amounts, and only theirs", () => {
    const records = new AgentRecords();
    const body = (nav: string, flow: string) =>
      JSON.stringify({ message: { takenAt: 1, nav, flow, investedBps: 5000 } });
    const seal = (i: number) => `0x${String(i).padStart(64, "0")}` as const;
    records.add("snapshot", seal(1), body("1234567890", "-5"));
    records.add("snapshot", seal(2), body("123456789012345678901", "0"));
    records.add("snapshot", seal(3), body("1", "-1234567890123456"));
    const s = records.snapshots;
    expect([s.raw(0), s.raw(1), s.raw(2)]).to.deep.equal([
      undefined,
      { nav: "123456789012345678901", flow: "0", usdgDecimals: 6 },
      { nav: "1", flow: "-1234567890123456", usdgDecimals: 6 },
    ]);
    expect([s.seal(0), s.seal(2), s.invested[1], s.length]).to.deep.equal([seal(1), seal(3), 0.5, 3]);
  });

  it("are dropped between hours once every reader of their kind has seen them, and only then", () => {
    const records = new AgentRecords();
    const body = (takenAt: number, nav: string) =>
      JSON.stringify({ message: { takenAt, nav, flow: "0", investedBps: 5000 } });
    const seal = (i: number) => `0x${String(i).padStart(64, "0")}` as const;
    for (let i = 0; i < 40; i++)
      records.add("snapshot", seal(i), body(i, i === 37 ? "123456789012345678901" : "7"));
    const decisionBody = (decidedAt: number) =>
      JSON.stringify({ message: { decidedAt, source: "agent", asset: "ETH", action: "hold" } });
    for (let i = 0; i < 3; i++) records.add("decision", seal(100 + i), decisionBody(i));
    // Nobody has claimed: everything stays.
    expect(records.settle(new Map())).to.equal(0);
    records.claim("score", { snapshots: 36, decisions: 2, trades: 0, calls: 0 });
    records.claim("risk", { snapshots: 30, trades: 0 });
    const readers = new Map([
      ["score", new Set(["snapshots", "decisions", "trades", "calls"])],
      ["risk", new Set(["snapshots", "trades"])],
    ]);
    // Snapshots to the smaller claim (risk's 30), decisions to score's (risk reads none).
    expect(records.settle(readers)).to.equal(30 + 2);
    expect(records.base).to.deep.equal({ snapshots: 30, decisions: 2, trades: 0, calls: 0 });
    expect(records.complete).to.equal(false);
    expect(records.totals()).to.deep.equal({ snapshots: 40, decisions: 3, trades: 0, calls: 0 });
    const s = records.snapshots;
    expect([s.length, s.at[0], s.seal(0), s.seal(9), s.raw(7)?.nav, s.raw(6)]).to.deep.equal([
      10,
      30,
      seal(30),
      seal(39),
      "123456789012345678901",
      undefined,
    ]);
    expect([
      records.decisions.length,
      records.decisions[0]!.decidedAt,
      records.sealOf("decision", 0),
    ]).to.deep.equal([1, 2, seal(102)]);
    // A reader without a claim for this agent keeps its kinds; appending after a drop still works.
    records.claim("risk", { snapshots: 40, trades: 0 });
    records.add("snapshot", seal(40), body(40, "7"));
    expect(records.settle(new Map([...readers, ["referee", new Set(["snapshots"])]]))).to.equal(0);
    expect(records.settle(readers)).to.equal(6);
    expect([records.base!.snapshots, s.length, s.seal(4), s.at[4]]).to.deep.equal([36, 5, seal(40), 40]);
  });
});

for (const backend of testBackends()) {
  describe(`cycle row cache on ${backend.name}`, () => {
    // Two stores fed the same records: A keeps its row cache between cycles (the default), B
    // reads every cycle's inputs afresh.
    let cached: Store;
    let cold: Store;
    let now = TEST_NOW;
    const both = async (submission: Submission) => {
      for (const store of [cached, cold])
        await ingestRecord(store, submission, {
          chainId: TEST_CHAIN_ID,
          now: () => now,
          recordGrace: Infinity,
        });
    };
    const creator = testWallet("creator of the cache agents");
    const keys = new Map<string, Wallet>();
    const register = async (agentId: string, seasonId: string) => {
      const key = testWallet(`cache agent ${agentId}`);
      keys.set(agentId, key);
      await both(await sign("Registration", registration(agentId, key, creator, seasonId), key, creator));
    };

    before(async () => {
      cached = await backend.open();
      cold = await backend.open();
      for (const store of [cached, cold]) {
        await addTestSeason(store, "s1");
        await addTestSeason(store, "s2");
      }
      await register("alpha", "s1");
      await register("beta", "s1");
      await register("gamma", "s2");
    });
    after(async () => {
      await cached.close();
      await cold.close();
    });

    it("writes exactly what a cycle reading every input afresh writes, hour after hour", async () => {
      const keepers = [new FakeKeeper(), new FakeKeeper()];
      const held: string[] = [];
      for (let day = 0; day < 5; day++) {
        now = TEST_NOW + day * DAY;
        const nav = String(1_000_000_000 + day * 13_000_000 - (day % 2) * 29_000_000);
        await both(await sign("Snapshot", snapshot("alpha", now - 60, nav), keys.get("alpha")!));
        await both(await sign("Decision", decision("alpha", now - 30), keys.get("alpha")!));
        await both(
          await sign(
            "Decision",
            { ...decision("alpha", now - 20), source: "protective-exit" },
            keys.get("alpha")!,
          ),
        );
        // beta's NAV is wider than a double holds exactly; its flow is negative.
        const wide = { ...snapshot("beta", now - 50, `98765432109876543210${day}`), flow: "-1000000" };
        await both(await sign("Snapshot", wide, keys.get("beta")!));
        await both(await sign("Snapshot", snapshot("gamma", now - 40, nav, "s2"), keys.get("gamma")!));
        if (day === 1) await both(await sign("Trade", trade("alpha", now - 10), keys.get("alpha")!));
        if (day === 2) {
          const call: CallRecordBody = {
            format: "augur-call/v1",
            chainId: TEST_CHAIN_ID,
            ledger: `0x${"c3".repeat(20)}`,
            callId: "7",
            agent: keys.get("alpha")!.address.toLowerCase(),
            agentId: "alpha",
            seasonId: "s1",
            outcome: "hit",
            confidenceBps: 7000,
            resolvedAt: now - 5,
            resolveTx: `0x${"ab".repeat(32)}`,
            reveal: null,
            exitPrice: null,
          };
          for (const store of [cached, cold])
            await store.db
              .transaction()
              .execute((trx) =>
                appendEngineRecords(
                  trx,
                  [{ kind: "call", agentId: "alpha", seasonId: "s1", body: call }],
                  now,
                ),
              );
        }
        const lines: string[] = [];
        const first = await runCycle({
          store: cached,
          steps: [anchorStep(keepers[0]), scoreStep(new AugurScorer()), riskStep()],
          now: () => now,
          progress: (line) => lines.push(line),
        });
        const second = await runCycle({
          store: cold,
          steps: [anchorStep(keepers[1]), scoreStep(new AugurScorer()), riskStep()],
          now: () => now,
          rows: new SeasonRowCache(cold),
        });
        expect(first).to.deep.equal(second);
        expect(first.scoredSeasons).to.have.members(["s1", "s2"]);
        held.push(...lines.filter((l) => l.startsWith("inputs of season s1")));
        expect(await written(cached)).to.deep.equal(await written(cold));
      }
      // From the second day on, the cached store read only that day's records of s1.
      expect(held).to.deep.equal([
        "inputs of season s1: 4 records read, 4 held",
        "inputs of season s1: 5 records read, 9 held",
        "inputs of season s1: 5 records read, 14 held",
        "inputs of season s1: 4 records read, 18 held",
        "inputs of season s1: 4 records read, 22 held",
      ]);
      const scored = await cached.db
        .selectFrom("scores")
        .select("score")
        .where("agent_id", "=", "alpha")
        .execute();
      expect(scored.some((r) => r.score !== null)).to.equal(true);
    });

    it("reads everything again when the log behind the handle is another one", async () => {
      const rows = new SeasonRows("s1");
      const other = await backend.open();
      try {
        await addTestSeason(other, "s1");
        const key = testWallet("cache agent delta");
        const ingest = (s: Submission) =>
          ingestRecord(other, s, { chainId: TEST_CHAIN_ID, now: () => TEST_NOW, recordGrace: Infinity });
        await ingest(await sign("Registration", registration("delta", key, creator), key, creator));
        await ingest(await sign("Snapshot", snapshot("delta", TEST_NOW - 60), key));
        const first = await rows.extendTo(other, 2);
        const size = (await cached.db.selectFrom("merkle_leaves").select("leaf_index").execute()).length;
        const again = await rows.extendTo(cached, size);
        expect(first).to.deep.equal({ read: 1, held: 1 });
        expect(again.read).to.equal(again.held);
        expect(rows.of("delta").count).to.equal(0);
        expect(rows.of("alpha").snapshots.length).to.equal(5);
      } finally {
        await other.close();
      }
    });

    it("reads an older view afresh and keeps the newer one", async () => {
      const cache = new SeasonRowCache(cached);
      const size = (await cached.db.selectFrom("merkle_leaves").select("leaf_index").execute()).length;
      const newer = await cache.season("s1", size, TEST_NOW);
      const older = await cache.season("s1", 4, TEST_NOW);
      expect(older.rows).to.not.equal(newer.rows);
      expect(older.held).to.be.below(newer.held);
      const again = await cache.season("s1", size, TEST_NOW);
      expect([again.rows, again.read]).to.deep.equal([newer.rows, 0]);
    });
  });
}
