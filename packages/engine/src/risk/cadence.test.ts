import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import fc from "fast-check";
import {
  benchSnapshot,
  benchTrade,
  seedBenchSeason,
  BENCH_SEASON,
  type BenchSeasonShape,
} from "../../test-support/cycle/bench-season";
import { FakeKeeper } from "../../test-support/cycle/testing";
import { RISK_FORMULAS } from "../cycle/formulas";
import { runCycle } from "../cycle/run";
import { anchorStep, riskStep } from "../cycle/steps";
import { appendEngineRecords, type EngineRecord } from "../store/append";
import { openStore, type Store } from "../store/open";
import { riskReadingsAt, riskRowsAt } from "../store/queries/risk";
import { SeasonRowCache } from "../store/season-rows";
import { RiskCadence } from "./cadence";
import { RiskFolds } from "./folds";
import { servedReadings, servedRiskRows } from "./served";

const HOUR = 3600;
const DAY = 24 * HOUR;
const SEEDED = 12;
// The season's day turns between the third and fourth hour cycled (the stopped reading counts days).
const START = 1_800_028_800 - (1_800_028_800 % DAY) + DAY - (SEEDED + 3) * HOUR;
const SHAPE: BenchSeasonShape = { agents: 4, hours: SEEDED, start: START };
const CYCLED = 6;

/** What each agent does in one hour: nothing, a snapshot, a trade, both, or a trade stamped after the hour (held). */
type Move = "none" | "snapshot" | "trade" | "both" | "late";
const hourOf = fc.array(fc.constantFrom<Move>("none", "none", "snapshot", "trade", "both", "late"), {
  minLength: SHAPE.agents,
  maxLength: SHAPE.agents,
});

/** Everything served at `hour`: the rows (with coverage and capital) and every reading; `asOf` apart (when each was stored). */
async function servedAt(store: Store, hour: number) {
  const rows = await riskRowsAt(store.db, BENCH_SEASON, hour);
  const readings = await riskReadingsAt(store.db, BENCH_SEASON, hour);
  const { rows: served, coverage } = servedRiskRows(rows.rows);
  const taken = [...served, ...servedReadings(readings.readings)].map((r) => r.asOf);
  const strip = <T extends { asOf: number }>({ asOf: _asOf, ...rest }: T) => rest;
  return {
    hours: [rows.hour, readings.hour],
    rows: served.map(strip),
    coverage,
    capital: rows.rows.map((r) => r.tvl_usd), // kept beside each row, outside its seal: coverage weighs by it
    readings: servedReadings(readings.readings).map(strip),
    taken,
  };
}

async function count(store: Store, table: "risk_rows" | "risk_readings" | "risk_capital"): Promise<number> {
  const row = await store.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe("risk readings stored on change", () => {
  let dir: string;
  let seeded: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "augur-risk-cadence-"));
    seeded = join(dir, "seeded.sqlite");
    await seedBenchSeason(seeded, SHAPE, () => undefined);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Two copies of the seeded season: one stored on change, one every hour (the reference). */
  async function pair(run: number): Promise<[Store, Store]> {
    const files = [join(dir, `on-change-${run}.sqlite`), join(dir, `every-hour-${run}.sqlite`)];
    for (const f of files) copyFileSync(seeded, f);
    return [
      await openStore({ kind: "sqlite", file: files[0]! }),
      await openStore({ kind: "sqlite", file: files[1]! }),
    ];
  }

  let runs = 0;
  it('"What share of the vault could be withdrawn at the last reading": each hour serves every vault\'s latest reading stored at or before it, exactly what storing every reading every hour serves (random seasons fed hour by hour, a restart)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(hourOf, { minLength: CYCLED, maxLength: CYCLED }),
        fc.integer({ min: 1, max: CYCLED }),
        async (moves, restartAt) => {
          const [onChange, everyHour] = await pair(runs++);
          try {
            const keepers = [new FakeKeeper(), new FakeKeeper()];
            let folds = new RiskFolds();
            let cadence = new RiskCadence();
            const trades = Array.from({ length: SHAPE.agents }, () => 0);
            const hours: number[] = [];
            for (const [h, plan] of moves.entries()) {
              const hour = SEEDED + h;
              if (h === restartAt) [folds, cadence] = [new RiskFolds(), new RiskCadence()]; // a restarted process
              const records: EngineRecord[] = [];
              plan.forEach((move, a) => {
                const at = START + hour * HOUR - 60;
                if (move === "snapshot" || move === "both") records.push(benchSnapshot(SHAPE, a, hour));
                if (move === "trade" || move === "both" || move === "late")
                  records.push(benchTrade(SHAPE, a, move === "late" ? at + HOUR + 30 : at, trades[a]!++));
              });
              for (const store of [onChange, everyHour])
                await store.db.transaction().execute(async (trx) => {
                  await appendEngineRecords(trx, records, START + hour * HOUR - 30);
                });
              const reports: Awaited<ReturnType<typeof runCycle>>[] = [];
              for (const [i, store] of [onChange, everyHour].entries())
                reports.push(
                  await runCycle({
                    store,
                    steps: [
                      anchorStep(keepers[i]),
                      i === 0
                        ? riskStep(RISK_FORMULAS, folds, cadence)
                        : riskStep(RISK_FORMULAS, "from-scratch", "every-hour"),
                    ],
                    now: () => START + hour * HOUR + 60,
                    rows: new SeasonRowCache(store),
                  }),
                );
              expect(reports.map((r) => r.riskRows)).to.deep.equal([SHAPE.agents, SHAPE.agents]);
              hours.push(reports[0]!.asOf);
              const [mine, reference] = [
                await servedAt(onChange, reports[0]!.asOf),
                await servedAt(everyHour, reports[0]!.asOf),
              ];
              expect(mine.rows).to.have.length(SHAPE.agents);
              expect(mine.readings).to.have.length(6 * SHAPE.agents);
              expect({ ...mine, taken: [] }).to.deep.equal({ ...reference, taken: [] });
              expect(reference.taken.every((t) => t === reports[0]!.asOf)).to.equal(true);
              expect(mine.taken.every((t) => t <= reports[0]!.asOf)).to.equal(true);
              expect(await onChange.log.size(onChange.db)).to.equal(await everyHour.log.size(everyHour.db));
            }
            // Every earlier hour is still served as the every-hour store serves it.
            for (const hour of hours) {
              const [mine, reference] = [await servedAt(onChange, hour), await servedAt(everyHour, hour)];
              expect({ ...mine, taken: [] }).to.deep.equal({ ...reference, taken: [] });
            }
            expect(await count(onChange, "risk_readings")).to.be.below(
              await count(everyHour, "risk_readings"),
            );
          } finally {
            await onChange.close();
            await everyHour.close();
          }
        },
      ),
      // Two SQLite stores and six cycles each a run: 6 runs in `npm test`, 62 in `test:deep` (FC_RUNS=10,000).
      { numRuns: Math.max(6, Math.floor(Number(process.env.FC_RUNS ?? 1000) / 160)) },
    );
  });

  it("an agent whose risk inputs did not change this hour is not read again and appends nothing; the day's turn reads it again", async () => {
    const [store] = await pair(runs++);
    try {
      const keeper = new FakeKeeper();
      const folds = new RiskFolds();
      const cadence = new RiskCadence();
      const cycle = (hour: number) =>
        runCycle({
          store,
          steps: [anchorStep(keeper), riskStep(RISK_FORMULAS, folds, cadence)],
          now: () => START + hour * HOUR + 60,
          rows: new SeasonRowCache(store),
        });
      const stored = async (): Promise<[number, number]> => [
        await count(store, "risk_rows"),
        await count(store, "risk_readings"),
      ];
      const first = await cycle(SEEDED);
      expect(cadence.counts).to.deep.include({ read: SHAPE.agents, kept: 0, readings: 24, rows: 4 });
      // Hour 2: only agent 0 sends a snapshot; the others' inputs did not change.
      await store.db.transaction().execute(async (trx) => {
        await appendEngineRecords(
          trx,
          [benchSnapshot(SHAPE, 0, SEEDED + 1)],
          START + (SEEDED + 1) * HOUR - 30,
        );
      });
      const [rows, readings] = await stored();
      const size = await store.log.size(store.db);
      await cycle(SEEDED + 1);
      expect(cadence.counts.read).to.equal(1);
      expect(cadence.counts.kept).to.equal(SHAPE.agents - 1);
      const [rowsAfter, readingsAfter] = await stored();
      // Agent 0: its worst-fall reading (points, last time) and its row (capital) at most.
      expect(rowsAfter - rows)
        .to.equal(cadence.counts.rows)
        .and.to.be.at.most(1);
      expect(readingsAfter - readings)
        .to.equal(cadence.counts.readings)
        .and.to.be.within(1, 6);
      const mine = await store.db
        .selectFrom("risk_readings")
        .select("vault_id")
        .where("as_of", "=", first.asOf + HOUR)
        .execute();
      expect(new Set(mine.map((r) => r.vault_id))).to.deep.equal(new Set(["agent-00000"]));
      // Hour 3: nothing new at all: nothing read, stored or appended but the anchor's own leaves.
      const anchoredBefore = await store.log.size(store.db);
      await cycle(SEEDED + 2);
      expect(cadence.counts).to.deep.equal({ read: 0, kept: SHAPE.agents, readings: 0, rows: 0, capital: 0 });
      expect(await stored()).to.deep.equal([rowsAfter, readingsAfter]);
      expect(await store.log.size(store.db)).to.equal(anchoredBefore);
      expect(anchoredBefore).to.be.above(size);
      // Hour 4 is on the next UTC day: every observed vault's day count changed, so each is read.
      await cycle(SEEDED + 3);
      expect(cadence.counts).to.deep.include({ read: SHAPE.agents, kept: 0 });
      expect(cadence.counts.readings).to.be.at.least(SHAPE.agents); // each one's stopped reading
    } finally {
      await store.close();
    }
  });

  it("a vault whose capital moved and whose row's seal did not stores the capital alone, served in the row at that hour", async () => {
    const [store] = await pair(runs++);
    try {
      const keeper = new FakeKeeper();
      const [folds, cadence] = [new RiskFolds(), new RiskCadence()];
      const cycle = async (hour: number, snapshots: EngineRecord[]) => {
        await store.db.transaction().execute(async (trx) => {
          await appendEngineRecords(trx, snapshots, START + hour * HOUR - 30);
        });
        return runCycle({
          store,
          steps: [anchorStep(keeper), riskStep(RISK_FORMULAS, folds, cadence)],
          now: () => START + hour * HOUR + 60,
          rows: new SeasonRowCache(store),
        });
      };
      const servedOf = async (hour: number) =>
        (await riskRowsAt(store.db, BENCH_SEASON, hour)).rows.find((r) => r.vault_id === "agent-00000")!;
      await cycle(SEEDED, []);
      // Agent 0's next snapshot is a deep fall (its worst-fall reading saturates at 1), the one after a rise.
      const fell = await cycle(SEEDED + 1, [benchSnapshot(SHAPE, 0, SEEDED + 1)]);
      const before = await servedOf(fell.asOf);
      const [rows, readings] = [await count(store, "risk_rows"), await count(store, "risk_readings")];
      const rose = await cycle(SEEDED + 2, [benchSnapshot(SHAPE, 0, SEEDED + 2)]);
      expect(cadence.counts).to.deep.equal({
        read: 1,
        kept: SHAPE.agents - 1,
        readings: 1,
        rows: 0,
        capital: 1,
      });
      expect([await count(store, "risk_rows"), await count(store, "risk_readings")]).to.deep.equal([
        rows,
        readings + 1,
      ]);
      const after = await servedOf(rose.asOf);
      expect(after.as_of).to.equal(rose.asOf);
      expect(after.tvl_usd).to.be.above(before.tvl_usd);
      expect({ ...after, as_of: 0, tvl_usd: 0 }).to.deep.equal({ ...before, as_of: 0, tvl_usd: 0 });
      // The hour before is served as it was.
      expect(await servedOf(fell.asOf)).to.deep.equal(before);
    } finally {
      await store.close();
    }
  });
});
