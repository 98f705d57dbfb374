import { expect } from "chai";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { RISK_COMPONENTS, rowFromReadings, seal, type ComponentReading, type RiskRow } from "@augur/scorer";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../app";
import { TEST_CHAIN_ID } from "../../../test-support/records/testing";
import { SITE_NOW, SITE_SEASON, seededSiteStore } from "../../../test-support/site/testing";
import type { Store } from "../../store/open";
import { testBackends } from "../../../test-support/store/testing";

type Served = ComponentReading & {
  methodology: string;
  asOf: number;
  seal: string;
  leafIndex: number;
  anchor: unknown;
};
const HOUR = 3600;

for (const backend of testBackends()) {
  describe(`risk components and evidence on ${backend.name}`, () => {
    let store: Store;
    let app: FastifyInstance;
    const get = async (url: string) => {
      const res = await app.inject({ method: "GET", url });
      const json = (res.headers["content-type"] ?? "").toString().includes("json");
      return {
        status: res.statusCode,
        body: (json ? res.json() : {}) as Record<string, unknown>,
        text: res.body,
      };
    };

    before(async () => {
      store = await seededSiteStore(() => backend.open());
      app = await buildApp({ store, chainId: TEST_CHAIN_ID, now: () => SITE_NOW + HOUR });
    });
    after(async () => {
      await app.close();
      await store.close();
    });

    it('"Six components, each already published on its own page here — the score adds no measurement of its own": every served score equals the score recomputed from the six served readings', async () => {
      const readings = new Map<string, Served[]>();
      for (const c of RISK_COMPONENTS) {
        const { status, body } = await get(`/api/v1/risk/components/${c}?season_id=${SITE_SEASON}`);
        expect(status).to.equal(200);
        for (const r of body.readings as Served[]) {
          const { seal: s, leafIndex: _l, anchor: _a, asOf: _t, ...sealed } = r;
          expect(seal(sealed), "a reading's sealed fields hash to its seal").to.equal(s);
          readings.set(r.vault_id, [...(readings.get(r.vault_id) ?? []), r]);
        }
      }
      const risk = (await get(`/api/v1/risk?season_id=${SITE_SEASON}`)).body.rows as RiskRow[];
      expect(risk).to.have.length(6);
      for (const row of risk) {
        const recomputed = rowFromReadings(readings.get(row.vault_id)!);
        expect([recomputed.score, recomputed.components, recomputed.measurable_share]).to.deep.equal([
          row.score,
          row.components,
          row.measurable_share,
        ]);
      }
    });

    it("each reading names its inputs; a null one says why; a declared season's exit and depositor say they were not read", async () => {
      const stopped = (await get(`/api/v1/risk/components/stopped?season_id=${SITE_SEASON}`)).body
        .readings as Served[];
      const ada = stopped.find((r) => r.vault_id === "ada")!;
      expect(ada.inputs).to.have.keys(["days_observed", "days_traded"]);
      const exit = (await get(`/api/v1/risk/components/exit?season_id=${SITE_SEASON}`)).body
        .readings as Served[];
      expect(exit.every((r) => r.reading === null && r.reason!.startsWith("declared season"))).to.equal(true);
      const bad = await get(`/api/v1/risk/components/nope?season_id=${SITE_SEASON}`);
      expect(bad.status).to.be.within(400, 404);
      expect((await get(`/api/v1/risk/components/exit`)).status).to.equal(400);
    });

    it('"The share of observed days the strategy actually traded": the served reading counts days with a trade, never days with only a decision', async () => {
      const stopped = (await get(`/api/v1/risk/components/stopped?season_id=${SITE_SEASON}`)).body
        .readings as Served[];
      const of = (id: string) => stopped.find((r) => r.vault_id === id)!;
      // The fixture: ada decided on 7 days and traded on 4 (days 0–3); dee decided on 6 and never traded.
      const ada = of("ada");
      const observed = ada.inputs.days_observed as number;
      expect(observed).to.be.above(7);
      expect(ada.inputs.days_traded).to.equal(4);
      expect(ada.reading).to.equal(Math.round(1e6 * (1 - 4 / observed)) / 1e6);
      expect([of("dee").inputs.days_traded, of("dee").reading]).to.deep.equal([0, 1]);
    });

    it('"It is not the provenance grade … lives in evidence, deliberately apart": an agent\'s evidence is served on its own route', async () => {
      const { status, body } = await get(`/api/v1/agents/ada/evidence?season_id=${SITE_SEASON}`);
      expect(status).to.equal(200);
      const inputs = body.inputs as { measured: number; declared: number; measuredShare: number };
      expect(inputs.measured).to.equal(0); // a declared season: every input signed by the agent
      expect(inputs.declared).to.be.above(0);
      expect(inputs.measuredShare).to.equal(0);
      const records = body.records as { total: number; anchored: number; anchoredShare: number };
      expect(records.anchored).to.be.at.most(records.total);
      expect(records.anchoredShare).to.equal(records.anchored / records.total);
      expect(body.openCalls).to.equal(0);
      expect(body.daysObserved).to.be.a("number").and.at.least(1);
      expect((await get(`/api/v1/agents/nobody/evidence?season_id=${SITE_SEASON}`)).status).to.equal(404);
      expect((await get(`/api/v1/agents/ada/evidence`)).status).to.equal(400);
    });

    it("the risk score never reads evidence: no risk source imports the evidence folder", () => {
      const src = join(__dirname, "..", "..");
      const files = [
        ...readdirSync(join(src, "risk")).map((f) => join(src, "risk", f)),
        join(src, "cycle", "steps", "risk.ts"),
      ];
      for (const f of files) expect(readFileSync(f, "utf8"), f).to.not.match(/evidence\//);
    });

    it("the pages exist: each component's, and each agent's evidence", async () => {
      for (const c of RISK_COMPONENTS) {
        const page = await get(`/risk/${c}?season=${SITE_SEASON}`);
        expect(page.status, c).to.equal(200);
        expect(page.text).to.include('id="readings"');
      }
      expect((await get(`/risk/nope`)).status).to.equal(404);
      const evidence = await get(`/agents/ada/evidence?season=${SITE_SEASON}`);
      expect(evidence.status).to.equal(200);
      expect(evidence.text).to.include('id="evidence"');
      const risk = await get(`/risk?season=${SITE_SEASON}`);
      expect(risk.text).to.include(`/agents/ada/evidence?season=${SITE_SEASON}`);
      expect(risk.text).to.include(`/risk/exit?season=${SITE_SEASON}`);
    });
  });
}
