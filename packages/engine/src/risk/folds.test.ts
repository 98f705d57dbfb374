import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { sql } from "kysely";
import {
  appendBenchHour,
  benchAgentId,
  benchTrade,
  BENCH_SEASON,
  seedBenchSeason,
  type BenchSeasonShape,
} from "../../test-support/cycle/bench-season";
import { FakeKeeper, storedFolds } from "../../test-support/cycle/testing";
import { RISK_FORMULAS } from "../cycle/formulas";
import { runCycle } from "../cycle/run";
import { anchorStep, riskStep } from "../cycle/steps";
import { appendEngineRecords } from "../store/append";
import { openStore, type Store } from "../store/open";
import { riskReadingsAt, riskRowsAt } from "../store/queries/risk";
import { SeasonRowCache } from "../store/season-rows";
import { riskFolds, RiskFolds } from "./folds";

const HOUR = 3600;
const START = 1_800_000_000 - (1_800_000_000 % HOUR);
const SHAPE: BenchSeasonShape = { agents: 3, hours: 24, start: START };

/** Every risk reading and row served at `asOf` (each vault's latest stored at or before it), by vault. */
async function riskSealsAt(store: Store, asOf: number) {
  const readings = (await riskReadingsAt(store.db, BENCH_SEASON, asOf)).readings
    .map((r) => ({ vault_id: r.vault_id, component: r.component, seal: r.seal }))
    .sort((x, y) => (x.vault_id + x.component < y.vault_id + y.component ? -1 : 1));
  const rows = (await riskRowsAt(store.db, BENCH_SEASON, asOf)).rows.map((r) => ({
    vault_id: r.vault_id,
    seal: r.seal,
  }));
  return { readings, rows };
}

const trade = (a: number, executedAt: number, n: number) => benchTrade(SHAPE, a, executedAt, n);

describe("risk folds in the cycle", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "augur-risk-folds-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("seal, hour after hour, after late and early trades and after a restart, exactly the whole-book readings and rows", async () => {
    const [a, b] = [join(dir, "folded.sqlite"), join(dir, "whole.sqlite")];
    await seedBenchSeason(a, SHAPE, () => undefined);
    await seedBenchSeason(b, SHAPE, () => undefined);
    const folded = await openStore({ kind: "sqlite", file: a });
    const whole = await openStore({ kind: "sqlite", file: b });
    try {
      const keepers = [new FakeKeeper(), new FakeKeeper()];
      let folds = new RiskFolds();
      const counts = [];
      for (let hour = SHAPE.hours; hour < SHAPE.hours + 5; hour++) {
        if (hour === SHAPE.hours + 4) folds = new RiskFolds(); // a restarted process
        const stores = [folded, whole];
        for (const store of stores) {
          if (hour > SHAPE.hours) await appendBenchHour(store, SHAPE, hour - 1);
          if (hour === SHAPE.hours + 1 || hour === SHAPE.hours + 2) {
            // hour 25: agent 0 an earlier trade than those folded (its fold is rebuilt), agent 1 one
            // stamped after the clock (held), agent 2 one in the hour; hour 26: agent 1's held
            // trade counts, with one more at the same second.
            const late = START + (SHAPE.hours + 1) * HOUR + 600;
            const trades =
              hour === SHAPE.hours + 1
                ? [trade(0, START + 61, 0), trade(1, late, 1), trade(2, START + hour * HOUR - 30, 2)]
                : [trade(1, late, 3)];
            await store.db.transaction().execute(async (trx) => {
              await appendEngineRecords(trx, trades, START + (hour - 1) * HOUR);
            });
          }
        }
        const reports = [];
        for (const [i, store] of stores.entries())
          reports.push(
            await runCycle({
              store,
              steps: [anchorStep(keepers[i]), riskStep(RISK_FORMULAS, i === 0 ? folds : "from-scratch")],
              now: () => START + hour * HOUR + 60,
              rows: new SeasonRowCache(store),
            }),
          );
        expect(reports.map((r) => r.riskRows)).to.deep.equal([SHAPE.agents, SHAPE.agents]);
        const asOf = reports[0]!.asOf;
        const [mine, reference] = [await riskSealsAt(folded, asOf), await riskSealsAt(whole, asOf)];
        expect(mine.readings).to.have.length(6 * SHAPE.agents);
        expect(mine).to.deep.equal(reference);
        counts.push({ ...folds.counts });
      }
      expect(counts).to.deep.equal([
        { advanced: 0, rebuilt: 3, fromScratch: 0 }, // no fold yet
        { advanced: 2, rebuilt: 1, fromScratch: 0 }, // agent 0's earlier trade
        { advanced: 3, rebuilt: 0, fromScratch: 0 },
        { advanced: 3, rebuilt: 0, fromScratch: 0 },
        { advanced: 3, rebuilt: 0, fromScratch: 0 }, // read back from risk_states, not rebuilt
      ]);
      // Stored when due (`foldDue`, the score folds' rule): every fold in the first cycle (08:00 UTC),
      // agent 0's rebuilt one, then each agent's in its own hour: agent 2's at 09:00, agent 0's at 11:00.
      const at = (h: number) => START + h * HOUR + 60;
      expect(await storedFolds(folded, "risk_states")).to.deep.equal([
        [benchAgentId(0), at(24)],
        [benchAgentId(1), at(24)],
        [benchAgentId(2), at(24)],
        [benchAgentId(0), at(25)],
        [benchAgentId(2), at(25)],
        [benchAgentId(0), at(27)],
      ]);
      const error = await sql`UPDATE risk_states SET state = '{}'`.execute(folded.db).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(String(error)).to.contain("risk_states is append-only (UPDATE refused)");
    } finally {
      await folded.close();
      await whole.close();
    }
  });

  it("keeps one set of risk folds per open store", async () => {
    const store = await openStore({ kind: "sqlite", file: ":memory:" });
    try {
      expect(riskFolds(store)).to.equal(riskFolds(store)).and.to.be.instanceOf(RiskFolds);
    } finally {
      await store.close();
    }
  });
});
