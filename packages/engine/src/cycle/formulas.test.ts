import { expect } from "chai";
import { FORMULAS } from "@augur/scorer";
import { TEST_NOW } from "../../test-support/records/testing";
import { addSeasonWithOneAgent, CountingScorer, FakeKeeper } from "../../test-support/cycle/testing";
import { testBackends } from "../../test-support/store/testing";
import { DAY, fakeSource, HISTORY_DAY0, writeScriptedHistory } from "../../test-support/stewardship/testing";
import { fakeIo } from "../../test-support/cli/testing";
import { reportError } from "../cli/main";
import { addDays, dayOf } from "../modes/days";
import {
  effectiveTime,
  FormulaMismatchError,
  FormulaUnnoticedError,
  type FormulaVersions,
} from "../modes/formulas";
import { writeNotice } from "../modes/notices";
import { methodologyNoticeBody, NOTICE_FORMAT, type MethodologyNoticeBody } from "../modes/records";
import { recordStewardshipDays } from "../stewardship/days";
import type { Store } from "../store/open";
import {
  assertBuildFormulasNoticed,
  BUILD_FORMULAS,
  scoreFormulas,
  type StewardshipFormula,
} from "./formulas";
import { runCycle } from "./run";
import type { Scorer, SeasonScoring } from "./seams";
import { anchorStep, CYCLE_SECONDS, scoreStep, stewardshipStep } from "./steps";
import { manifestTexts } from "../store/queries/records";

/** The counting scorer under a version id, its scores times `factor`: a v-next that differs visibly. */
class VersionedScorer implements Scorer {
  private readonly inner = new CountingScorer();
  constructor(
    readonly id: string,
    private readonly factor: number,
  ) {}
  openSeason(...args: Parameters<Scorer["openSeason"]>): SeasonScoring {
    const season = this.inner.openSeason(...args);
    return {
      scoreAgent: (agent) => season.scoreAgent(agent),
      finish: () =>
        season.finish().map((o) => ({
          ...o,
          formula: this.id,
          score: o.score === null ? null : o.score * this.factor,
          manifest: { ...o.manifest, formula: this.id },
        })),
    };
  }
}

const V1 = "counting/v1";
const V2 = "counting/v2";
const both = (): FormulaVersions<Scorer> => [
  { id: V1, impl: new VersionedScorer(V1, 1) },
  { id: V2, impl: new VersionedScorer(V2, 2) },
];
const families = { ...BUILD_FORMULAS, score: [V1, V2] };

/** Stores a methodology notice as it is sealed on `sealedAt` (the body as given, unchecked). */
const seal = (store: Store, body: MethodologyNoticeBody, sealedAt: number) =>
  writeNotice(store, "methodology", body.effective, body, sealedAt);

/** The stored score rows, in as-of order. */
const scoreRows = (store: Store) => store.db.selectFrom("scores").selectAll().orderBy("as_of").execute();

describe("formula versions this build carries", () => {
  it("are each re-derivable by augur verify, which recomputes the version a manifest names", () => {
    for (const id of BUILD_FORMULAS.score) expect(FORMULAS[id]?.version, id).to.equal(id);
    expect(scoreFormulas(new CountingScorer()).map((v) => v.id)).to.deep.equal(BUILD_FORMULAS.score);
  });
});

for (const backend of testBackends()) {
  describe(`Updates require 14 days' public notice and apply only forward (${backend.name})`, () => {
    const stores: Store[] = [];
    const open = async () => {
      const store = await backend.open();
      stores.push(store);
      return store;
    };
    afterEach(async () => {
      for (const store of stores.splice(0)) await store.close();
    });

    const effective = addDays(dayOf(TEST_NOW), 14);
    const switchAt = effectiveTime(effective);
    const hours = [-2, -1, 0, 1, 2].map((h) => switchAt + h * CYCLE_SECONDS);

    it("switches at the effective time: each hour's rows name the version in force at the hour's end", async () => {
      // Two stores with the same records and the same notice; only the build differs.
      const run = async (versions: FormulaVersions<Scorer>) => {
        const store = await open();
        await addSeasonWithOneAgent(store);
        await seal(store, methodologyNoticeBody(V2, effective, dayOf(TEST_NOW)), TEST_NOW);
        const keeper = new FakeKeeper();
        for (const at of hours)
          await runCycle({ store, steps: [anchorStep(keeper), scoreStep(versions)], now: () => at + 10 });
        return scoreRows(store);
      };
      const switched = await run(both());
      const v1Only = await run([both()[0]]);
      await assertBuildFormulasNoticed(stores[0]!.db, families); // v2 announced: this build may start
      expect(switched.map((r) => [r.as_of - switchAt, r.formula, r.score])).to.deep.equal([
        [-2 * CYCLE_SECONDS, V1, 10],
        [-CYCLE_SECONDS, V1, 10],
        [0, V2, 20],
        [CYCLE_SECONDS, V2, 20],
        [2 * CYCLE_SECONDS, V2, 20],
      ]);
      // Before the switch, byte for byte what a build without v2 sealed; from it on, different.
      expect(switched.slice(0, 2)).to.deep.equal(v1Only.slice(0, 2));
      expect(v1Only.map((r) => r.formula)).to.deep.equal(hours.map(() => V1));
      for (let i = 2; i < hours.length; i++) expect(switched[i]!.seal).not.to.equal(v1Only[i]!.seal);
      const bodies = await manifestBodies(
        stores[0]!,
        switched.map((r) => r.seal),
      );
      expect(bodies.map((b) => (JSON.parse(b) as { formula: string }).formula)).to.deep.equal(
        switched.map((r) => r.formula),
      );
    });

    it("refuses to start a build carrying a version no notice announces", async () => {
      const store = await open();
      const refusal = await assertBuildFormulasNoticed(store.db, families).catch((e: unknown) => e);
      expect(refusal).to.be.instanceOf(FormulaUnnoticedError);
      expect((refusal as Error).message).to.equal(
        `refused: this build carries ${V2} but no methodology notice announces it (augur methodology announce --formula ${V2} --effective <a date at least 14 days ahead>)`,
      );
      // As augur cycle, serve and npm start report it: exit 1, one line on stderr.
      const io = fakeIo();
      expect(reportError("cycle", refusal, io)).to.equal(1);
      await new Promise((resolve) => setImmediate(resolve));
      expect(io.err()).to.equal(`augur cycle: ${(refusal as Error).message}\n`);
      await assertBuildFormulasNoticed(store.db); // this build: genesis versions only, no notice needed
    });

    it("refuses a notice sealed 13 days ahead, whatever day its text claims, and never runs the version", async () => {
      const store = await open();
      await addSeasonWithOneAgent(store);
      const early = addDays(dayOf(TEST_NOW), 13);
      const body: MethodologyNoticeBody = {
        format: NOTICE_FORMAT,
        notice: "methodology",
        formula: V2,
        reason: "backdated",
        announced: addDays(dayOf(TEST_NOW), -1), // claims 14 days; the log says when it was sealed
        effective: early,
      };
      await seal(store, body, TEST_NOW);
      const refusal = await assertBuildFormulasNoticed(store.db, families).catch((e: unknown) => e);
      expect((refusal as Error).message).to.equal(
        `refused: this build carries ${V2} but its notice, sealed on ${dayOf(TEST_NOW)} for ${early}, gives 13 days' notice, not 14`,
      );
      const at = effectiveTime(early) + CYCLE_SECONDS;
      await runCycle({ store, steps: [anchorStep(new FakeKeeper()), scoreStep(both())], now: () => at });
      expect((await scoreRows(store)).map((r) => r.formula)).to.deep.equal([V1]);
    });

    it("refuses rows that name another formula than the version in force", async () => {
      const store = await open();
      await addSeasonWithOneAgent(store);
      const mislabelled: FormulaVersions<Scorer> = [{ id: V1, impl: new VersionedScorer(V2, 1) }];
      const error = await runCycle({
        store,
        steps: [anchorStep(new FakeKeeper()), scoreStep(mislabelled)],
        now: () => TEST_NOW,
      }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(FormulaMismatchError);
      expect(await scoreRows(store)).to.deep.equal([]);
    });

    it("measures each stewardship day by the version in force at the day's end, across one pass", async () => {
      const store = await open();
      await writeScriptedHistory(store);
      const recordedBy: Record<string, string[]> = { v1: [], v2: [] };
      const variant =
        (name: string): StewardshipFormula =>
        async (...args) => {
          const days = await recordStewardshipDays(...args);
          recordedBy[name]!.push(...days);
          return days;
        };
      const versions: FormulaVersions<StewardshipFormula> = [
        { id: "steward-test/v1", impl: variant("v1") },
        { id: "steward-test/v2", impl: variant("v2") },
      ];
      const day = (n: number) => dayOf(HISTORY_DAY0 + n * DAY);
      const sealedAt = HISTORY_DAY0 - 20 * DAY;
      await seal(store, methodologyNoticeBody("steward-test/v2", day(2), dayOf(sealedAt)), sealedAt);
      const source = fakeSource();
      source.finalThrough = HISTORY_DAY0 + 3 * DAY;
      const report = await runCycle({
        store,
        steps: [anchorStep(), stewardshipStep(source, versions)],
        now: () => HISTORY_DAY0 + 3 * DAY + 60,
      });
      // Day 1 ends at day 2's midnight, the effective time: the new version measures it.
      expect(recordedBy).to.deep.equal({ v1: [day(0)], v2: [day(1), day(2)] });
      expect(report.stewardshipDays).to.deep.equal([day(0), day(1), day(2)]);
    });
  });
}

/** The sealed score manifests of `seals`, as the log's records hold them. */
async function manifestBodies(store: Store, seals: readonly string[]): Promise<string[]> {
  const texts = await manifestTexts(store.db, seals);
  return seals.map((s) => texts.get(s)!);
}
