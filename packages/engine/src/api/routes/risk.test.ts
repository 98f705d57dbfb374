import { expect } from "chai";
import { seal, type RiskRow } from "@augur/scorer";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../app";
import { addTestSeason, TEST_CHAIN_ID } from "../../../test-support/records/testing";
import { SITE_AGENTS, SITE_NOW, SITE_SEASON, seededSiteStore } from "../../../test-support/site/testing";
import type { Store } from "../../store/open";
import { testBackends } from "../../../test-support/store/testing";
import { latestAnchor } from "../../store/queries/anchors";
import { insertRiskHour, insertRiskReadings, insertRiskRows } from "../../store/queries/risk";

type ServedRow = RiskRow & {
  methodology: string;
  asOf: number;
  seal: string;
  leafIndex: number;
  anchor: { status: string; anchorIndex?: number };
};
interface Served {
  methodology: string;
  asOf: number;
  sort: string;
  order: string;
  rows: ServedRow[];
  coverage: { capital_share: number | null; vault_share: number | null; unscored: number };
}

const HOUR = 3600;

for (const backend of testBackends()) {
  describe(`GET /api/v1/risk on ${backend.name}`, () => {
    let store: Store;
    let app: FastifyInstance;
    const get = async (url: string) => {
      const res = await app.inject({ method: "GET", url });
      return { status: res.statusCode, body: res.json() as Served & { error?: { code: string } } };
    };

    before(async () => {
      store = await seededSiteStore(() => backend.open());
      app = await buildApp({ store, chainId: TEST_CHAIN_ID, now: () => SITE_NOW + HOUR });
    });
    after(async () => {
      await app.close();
      await store.close();
    });

    it("serves the rows the cycle sealed, anchored by the same pass; 404 for a season without rows", async () => {
      await addTestSeason(store, "s2");
      const none = await get("/api/v1/risk?season_id=s2");
      expect([none.status, none.body.error?.code]).to.deep.equal([404, "NO_RISK"]);

      const stored = await store.db.selectFrom("risk_rows").select(["as_of", "seal"]).execute();
      expect(stored).to.have.length(6); // the fixture's six agents, sealed by its second cycle
      const served = await get(`/api/v1/risk?season_id=${SITE_SEASON}`);
      expect(served.status).to.equal(200);
      expect(served.body.asOf).to.equal(Math.floor((SITE_NOW + HOUR) / HOUR) * HOUR);
      expect(served.body.rows.map((r) => r.seal).sort()).to.deep.equal(stored.map((r) => r.seal).sort());
      // The site's view serves the same stored rows.
      const site = await get(`/api/v1/seasons/${SITE_SEASON}/risk`);
      expect(site.body.rows.map((r) => r.seal).sort()).to.deep.equal(stored.map((r) => r.seal).sort());

      // The cycle anchored the head again after sealing them: the newest anchor covers every row.
      const newest = await latestAnchor(store.db);
      const leaves = await store.db.selectFrom("risk_rows").select("leaf_index").execute();
      expect(Math.max(...leaves.map((l) => l.leaf_index))).to.be.below(newest!.tree_size);
      for (const r of served.body.rows) {
        expect(r.anchor.status).to.equal("anchored");
        // The row's sealed fields hash to its seal, as served.
        const { seal: rowSeal, leafIndex: _leaf, anchor: _anchor, asOf: _asOf, ...sealed } = r;
        expect(seal(sealed)).to.equal(rowSeal);
      }
      const scored = served.body.rows.filter((r) => r.score !== null).length;
      expect(served.body.coverage.unscored).to.equal(served.body.rows.length - scored);
      expect(served.body.coverage.vault_share).to.equal(scored / served.body.rows.length);
    });

    it("serves an asked hour: each vault's latest reading at or before it, the hour served as asOf; 404 before the first", async () => {
      const latest = await get(`/api/v1/risk?season_id=${SITE_SEASON}`);
      const hours = await store.db
        .selectFrom("risk_hours")
        .select("as_of")
        .where("season_id", "=", SITE_SEASON)
        .execute();
      expect(hours.map((h) => h.as_of)).to.include(latest.body.asOf);
      const later = await get(`/api/v1/risk?season_id=${SITE_SEASON}&as_of=${latest.body.asOf + 5 * HOUR}`);
      expect(later.body).to.deep.equal(latest.body);
      for (const r of latest.body.rows) expect(r.asOf).to.be.at.most(latest.body.asOf);
      const first = Math.min(...hours.map((h) => h.as_of));
      const before = await get(`/api/v1/risk?season_id=${SITE_SEASON}&as_of=${first - 1}`);
      expect([before.status, before.body.error?.code]).to.deep.equal([404, "NO_RISK"]);
      const exit = await app.inject(
        `/api/v1/risk/components/exit?season_id=${SITE_SEASON}&as_of=${first - 1}`,
      );
      expect(exit.statusCode).to.equal(404);
    });

    it("has no score for a row below 50 % measurable", async () => {
      const { body } = await get(`/api/v1/risk?season_id=${SITE_SEASON}`);
      const fay = body.rows.find((r) => r.vault_id === SITE_AGENTS.riskUnmeasurable)!;
      expect(fay.measurable_share).to.be.below(0.5);
      expect([fay.score, fay.reason]).to.deep.equal([null, "insufficient_measurable"]);
    });

    it("sorts by a component either way, unmeasured rows last", async () => {
      for (const order of ["desc", "asc"] as const) {
        const { status, body } = await get(
          `/api/v1/risk?season_id=${SITE_SEASON}&sort=worst_fall&order=${order}`,
        );
        expect([status, body.sort, body.order]).to.deep.equal([200, "worst_fall", order]);
        const values = body.rows.map((r) => r.components.worst_fall);
        const measured = values.filter((v): v is number => v !== null);
        expect(measured.length).to.be.at.least(2);
        const expected = [...measured].sort((a, b) => (order === "asc" ? a - b : b - a));
        expect(values).to.deep.equal([...expected, ...values.filter((v) => v === null)]);
      }
      const bySet = await get(`/api/v1/risk?season_id=${SITE_SEASON}&sort=measurable&order=asc`);
      const shares = bySet.body.rows.map((r) => r.measurable_share);
      expect(shares).to.deep.equal([...shares].sort((a, b) => a - b));
      expect(shares[0]).to.be.below(shares[shares.length - 1]!);
    });

    it("refuses a bad query with a 4xx JSON error", async () => {
      const cases: Array<[string, number, string]> = [
        ["/api/v1/risk", 400, "INVALID_INPUT"],
        [`/api/v1/risk?season_id=${SITE_SEASON}&sort=return`, 400, "INVALID_INPUT"],
        [`/api/v1/risk?season_id=${SITE_SEASON}&order=up`, 400, "INVALID_INPUT"],
        [`/api/v1/risk?season_id=${SITE_SEASON}&limit=3`, 400, "INVALID_INPUT"],
        ["/api/v1/risk?season_id=bad%20id", 400, "INVALID_INPUT"],
        ["/api/v1/risk?season_id=nope", 404, "UNKNOWN_SEASON"],
      ];
      for (const [url, status, code] of cases) {
        const res = await get(url);
        expect([url, res.status, res.body.error?.code]).to.deep.equal([url, status, code]);
      }
    });

    it("prints the methodology each row names, not a constant: rows sealed by a v-next read as v-next on the API and the pages", async () => {
      // The formula registry may switch risk versions by effective date (cycle/formulas.ts): copy
      // the latest rows and readings into another season as a v-next this build does not carry sealed them.
      await addTestSeason(store, "s3");
      const asV2 = (body: string) => {
        const sealed = { ...(JSON.parse(body) as object), methodology: "risk-score/v2" };
        return { body: JSON.stringify(sealed), seal: seal(sealed) };
      };
      const rows = await store.db
        .selectFrom("risk_rows")
        .selectAll()
        .where("season_id", "=", SITE_SEASON)
        .execute();
      const readings = await store.db
        .selectFrom("risk_readings")
        .selectAll()
        .where("season_id", "=", SITE_SEASON)
        .execute();
      await insertRiskRows(
        store.db,
        rows.map((r) => ({ ...r, season_id: "s3", ...asV2(r.body) })),
      );
      await insertRiskReadings(
        store.db,
        readings.map((r) => ({ ...r, season_id: "s3", ...asV2(r.body) })),
      );
      const hours = await store.db
        .selectFrom("risk_hours")
        .selectAll()
        .where("season_id", "=", SITE_SEASON)
        .execute();
      for (const hour of hours) await insertRiskHour(store.db, { ...hour, season_id: "s3" });

      const served = await get("/api/v1/risk?season_id=s3");
      expect(served.body.methodology).to.equal("risk-score/v2");
      expect(new Set(served.body.rows.map((r) => r.methodology))).to.deep.equal(new Set(["risk-score/v2"]));
      const view = await get("/api/v1/seasons/s3/risk");
      expect(view.body.methodology).to.equal("risk-score/v2");
      const exit = (await app.inject("/api/v1/risk/components/exit?season_id=s3")).json<{
        methodology: string;
        weightBps: number | null;
      }>();
      // Its weights are not this build's to print: none rather than v1's.
      expect(exit).to.include({ methodology: "risk-score/v2", weightBps: null });
      for (const url of ["/risk?season=s3", "/risk/exit?season=s3"]) {
        const page = (await app.inject(url)).body;
        expect(page, url).to.include('<span id="methodology">risk-score/v2</span>');
        expect(page, url).not.to.include("risk-score/v1");
        expect(page, url).not.to.match(/\(17\.5 %\)|weight 17\.5 %/);
      }
      // The season sealed by v1 still says v1, with v1's weights.
      expect((await get(`/api/v1/risk?season_id=${SITE_SEASON}`)).body.methodology).to.equal("risk-score/v1");
      const v1Page = (await app.inject(`/risk?season=${SITE_SEASON}`)).body;
      expect(v1Page).to.include('<span id="methodology">risk-score/v1</span>');
      expect(v1Page).to.include("Could you get out (17.5 %)");
    });

    it("is in the OpenAPI document", async () => {
      const doc = (await app.inject("/api/v1/openapi.json")).json() as {
        paths: Record<string, { get?: { parameters?: Array<{ name: string }> } }>;
      };
      const names = doc.paths["/api/v1/risk"]?.get?.parameters?.map((p) => p.name);
      expect(names).to.include.members(["season_id", "sort", "order"]);
    });
  });
}
