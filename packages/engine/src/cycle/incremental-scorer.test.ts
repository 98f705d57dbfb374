import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import fc from "fast-check";
import { sql } from "kysely";
import { seal } from "@augur/scorer";
import {
  appendBenchHour,
  benchAgentId,
  BENCH_SEASON,
  benchTrade,
  benchScoreSeals,
  recordsPerAgent,
  seedBenchSeason,
  type BenchSeasonShape,
} from "../../test-support/cycle/bench-season";
import { FakeKeeper, storedFolds } from "../../test-support/cycle/testing";
import { appendEngineRecords } from "../store/append";
import { riskRowsAt } from "../store/queries/risk";
import { foldHour } from "../store/folds";
import { openStore, type Store } from "../store/open";
import { SeasonRowCache } from "../store/season-rows";
import { AugurScorer } from "./augur-scorer";
import { cycleScorer, IncrementalAugurScorer } from "./incremental-scorer";
import { runCycle } from "./run";
import { RISK_FORMULAS } from "./formulas";
import { RiskFolds } from "../risk/folds";
import { anchorStep, riskStep, scoreStep } from "./steps";
import { seasonOutcomes } from "./steps/score";

const HOUR = 3600;
const START = 1_800_000_000 - (1_800_000_000 % HOUR);
const SHAPE: BenchSeasonShape = { agents: 3, hours: 24, start: START };

/** One cycle at the start of `hour` (hours after the season start) with `scorer`; the anchored size it scored below. */
async function cycleAt(
  store: Store,
  keeper: FakeKeeper,
  scorer: IncrementalAugurScorer | AugurScorer,
  hour: number,
) {
  let read = 0;
  const report = await runCycle({
    store,
    steps: [anchorStep(keeper), scoreStep(scorer)],
    now: () => START + hour * HOUR + 60,
    rows: new SeasonRowCache(store),
    progress: (line) => (read += Number(/: (\d+) records read/.exec(line)?.[1] ?? 0)),
  });
  return { asOf: report.asOf, size: report.head.treeSize, read };
}

/** The stored score seals at `asOf` against the from-scratch scorer's manifests of the same inputs. */
async function storedAndReference(store: Store, asOf: number, size: number) {
  const stored = await benchScoreSeals(store, asOf);
  const outcomes = await seasonOutcomes(
    { store, asOf, say: () => undefined, rows: new SeasonRowCache(store) },
    new AugurScorer(),
    BENCH_SEASON,
    size,
  );
  const reference = outcomes!.map((o) => ({ agent_id: o.agentId, seal: seal(o.manifest) }));
  return { stored, reference: reference.sort((a, b) => (a.agent_id < b.agent_id ? -1 : 1)) };
}

describe("incremental scoring in the cycle", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "augur-incremental-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("stores, hour after hour and after a restart, exactly the from-scratch scorer's manifests", async () => {
    const file = join(dir, "season.sqlite");
    await seedBenchSeason(file, SHAPE, () => undefined);
    const store = await openStore({ kind: "sqlite", file });
    try {
      const keeper = new FakeKeeper();
      let scorer = new IncrementalAugurScorer();
      const counts = [];
      const reads = [];
      for (let hour = SHAPE.hours; hour < SHAPE.hours + 4; hour++) {
        if (hour === SHAPE.hours + 3) scorer = new IncrementalAugurScorer(); // a restarted process
        if (hour > SHAPE.hours) await appendBenchHour(store, SHAPE, hour - 1);
        // Every cycle gets an empty row cache: the rows start where the scorer's folds leave off.
        const { asOf, size, read } = await cycleAt(store, keeper, scorer, hour);
        reads.push(read);
        const { stored, reference } = await storedAndReference(store, asOf, size);
        expect(stored).to.have.length(SHAPE.agents);
        expect(stored).to.deep.equal(reference);
        counts.push({ ...scorer.counts });
      }
      expect(counts).to.deep.equal([
        { advanced: 0, rebuilt: 3, fromScratch: 0 }, // no fold yet
        { advanced: 3, rebuilt: 0, fromScratch: 0 },
        { advanced: 3, rebuilt: 0, fromScratch: 0 },
        { advanced: 3, rebuilt: 0, fromScratch: 0 }, // read back from score_states, not rebuilt
      ]);
      // The whole season first; then one hour of snapshots (folds in memory); after the restart,
      // the hours since each agent's last stored fold, not the season: 3 for agents 0 and 1
      // (stored in the first cycle), 2 for agent 2 (stored again in its own hour, the next).
      const season = recordsPerAgent(SHAPE.hours);
      const perAgent = season.snapshots + season.decisions + season.trades + season.calls;
      expect(reads).to.deep.equal([SHAPE.agents * perAgent, 3, 3, 3 + 3 + 2]);
      // Stored when due (`foldDue`): every fold in the first cycle (08:00 UTC), then each agent's in
      // its own hour of the day: agent 2's at 09:00, agent 0's at 11:00 (agent 1's is 00:00).
      expect([0, 1, 2].map((a) => foldHour(benchAgentId(a)))).to.deep.equal([11, 0, 9]);
      const at = (h: number) => START + h * HOUR + 60;
      expect(await storedFolds(store, "score_states")).to.deep.equal([
        [benchAgentId(0), at(24)],
        [benchAgentId(1), at(24)],
        [benchAgentId(2), at(24)],
        [benchAgentId(2), at(25)],
        [benchAgentId(0), at(27)],
      ]);
      expect(Math.floor(at(24) / HOUR) % 24).to.equal(8);
      const error = await sql`UPDATE score_states SET state = '{}'`.execute(store.db).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(String(error)).to.contain("score_states is append-only (UPDATE refused)");
    } finally {
      await store.close();
    }
  });

  it("rebuilds every fold whose log is no longer the store's", async () => {
    const [a, b] = [join(dir, "a.sqlite"), join(dir, "b.sqlite")];
    await seedBenchSeason(a, SHAPE, () => undefined);
    await seedBenchSeason(b, { ...SHAPE, hours: SHAPE.hours + 1 }, () => undefined);
    const scorer = new IncrementalAugurScorer();
    for (const file of [a, b]) {
      const store = await openStore({ kind: "sqlite", file });
      try {
        const { asOf, size } = await cycleAt(store, new FakeKeeper(), scorer, SHAPE.hours + 2);
        const { stored, reference } = await storedAndReference(store, asOf, size);
        expect(stored).to.deep.equal(reference);
        expect(scorer.counts).to.deep.equal({ advanced: 0, rebuilt: 3, fromScratch: 0 });
      } finally {
        await store.close();
      }
    }
  });

  it("holds records stamped after the clock, rebuilds or scores from scratch an agent whose new records its fold cannot take; same manifests", async () => {
    const file = join(dir, "late.sqlite");
    await seedBenchSeason(file, SHAPE, () => undefined);
    const store = await openStore({ kind: "sqlite", file });
    try {
      const keeper = new FakeKeeper();
      const scorer = new IncrementalAugurScorer();
      await cycleAt(store, keeper, scorer, SHAPE.hours);
      // agent 0: a trade earlier than those folded (its fold is rebuilt from all its records);
      // agent 1: one after the next clock, then one that counts now (the scorer puts the second
      // first: scored from scratch); agent 2: one after the next clock (held for a later hour).
      const trade = (a: number, executedAt: number, n: number) => benchTrade(SHAPE, a, executedAt, n);
      const late = START + 40 * HOUR;
      const trades = [trade(0, START + 61, 0), trade(1, late, 1), trade(1, START + 62, 2), trade(2, late, 3)];
      await store.db.transaction().execute(async (trx) => {
        await appendEngineRecords(trx, trades, START + SHAPE.hours * HOUR);
      });
      const { asOf, size } = await cycleAt(store, keeper, scorer, SHAPE.hours + 1);
      const { stored, reference } = await storedAndReference(store, asOf, size);
      expect(stored).to.deep.equal(reference);
      expect(scorer.counts).to.deep.equal({ advanced: 1, rebuilt: 1, fromScratch: 1 });
    } finally {
      await store.close();
    }
  });

  it("restarted after a random hour, reads only the tail and keeps only what its folds need; the same scores and risk rows as from scratch", async () => {
    const seeded = join(dir, "restart-seed.sqlite");
    const shape: BenchSeasonShape = { agents: 3, hours: 8, start: START };
    await seedBenchSeason(seeded, shape, () => undefined);
    const HOURS = 5;
    // Per hour, extra trades: [agent, when] — 0 in the hour, 1 after the next clock (held for a
    // later hour, maybe across the restart), 2 earlier than those folded.
    const extras = fc.array(fc.array(fc.tuple(fc.nat(shape.agents - 1), fc.nat(2)), { maxLength: 2 }), {
      minLength: HOURS,
      maxLength: HOURS,
    });
    const numRuns = Math.max(2, Math.ceil((fc.readConfigureGlobal().numRuns ?? 100) / 500));
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: HOURS - 1 }), extras, async (restartAt, added) => {
        const files = [join(dir, `tail-${run}.sqlite`), join(dir, `scratch-${run++}.sqlite`)];
        for (const file of files) copyFileSync(seeded, file);
        const [tail, scratch] = await Promise.all(files.map((file) => openStore({ kind: "sqlite", file })));
        try {
          const keepers = [new FakeKeeper(), new FakeKeeper()];
          let scorer = new IncrementalAugurScorer();
          let folds = new RiskFolds();
          let rows = new SeasonRowCache(tail!);
          let n = 0;
          for (let h = 0; h < HOURS; h++) {
            const hour = shape.hours + h;
            const trades = added[h]!.map(([a, when]) =>
              benchTrade(
                shape,
                a,
                [START + hour * HOUR - 30, START + (hour + 1) * HOUR + 600, START + 61][when]!,
                n++,
              ),
            );
            for (const store of [tail!, scratch!]) {
              if (h > 0) await appendBenchHour(store, shape, hour - 1);
              await store.db
                .transaction()
                .execute((trx) => appendEngineRecords(trx, trades, START + hour * HOUR));
            }
            if (h === restartAt)
              [scorer, folds, rows] = [
                new IncrementalAugurScorer(),
                new RiskFolds(),
                new SeasonRowCache(tail!),
              ];
            const now = () => START + hour * HOUR + 60;
            const mine = await runCycle({
              store: tail!,
              steps: [anchorStep(keepers[0]!), scoreStep(scorer), riskStep(RISK_FORMULAS, folds)],
              now,
              rows,
            });
            await runCycle({
              store: scratch!,
              steps: [
                anchorStep(keepers[1]!),
                scoreStep(new AugurScorer()),
                riskStep(RISK_FORMULAS, "from-scratch"),
              ],
              now,
              rows: new SeasonRowCache(scratch!),
            });
            const scoreSeals = (store: Store) =>
              store.db
                .selectFrom("scores")
                .select("seal")
                .where("as_of", "=", mine.asOf)
                .orderBy("seal")
                .execute();
            expect(await scoreSeals(tail!)).to.have.length(shape.agents);
            expect(await scoreSeals(tail!)).to.deep.equal(await scoreSeals(scratch!));
            // Risk rows are stored on change (a capital that moved alone apart): compare what is served.
            const served = async (store: Store) =>
              (await riskRowsAt(store.db, BENCH_SEASON, mine.asOf)).rows
                .map((row) => ({ vault: row.vault_id, seal: row.seal, tvl: row.tvl_usd, asOf: row.as_of }))
                .sort((a, b) => a.vault.localeCompare(b.vault));
            expect(await served(tail!)).to.have.length(shape.agents);
            expect(await served(tail!)).to.deep.equal(await served(scratch!));
            // Nothing earlier than a folded trade: every record is folded by both steps, so none is held.
            if (added.slice(0, h + 1).every((hourly) => hourly.length === 0)) expect(rows.held).to.equal(0);
          }
        } finally {
          await tail!.close();
          await scratch!.close();
        }
      }),
      { numRuns },
    );
  });

  it("keeps one incremental scorer per open store; from-scratch is the reference AugurScorer", async () => {
    const store = await openStore({ kind: "sqlite", file: ":memory:" });
    try {
      expect(cycleScorer(store)).to.equal(cycleScorer(store, "incremental"));
      expect(cycleScorer(store)).to.be.instanceOf(IncrementalAugurScorer);
      expect(cycleScorer(store, "from-scratch")).to.be.instanceOf(AugurScorer);
    } finally {
      await store.close();
    }
  });
});
