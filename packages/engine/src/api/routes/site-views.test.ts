import { expect } from "chai";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../app";
import { TEST_CHAIN_ID } from "../../../test-support/records/testing";
import type { Store } from "../../store/open";
import { testBackends } from "../../../test-support/store/testing";
import { SITE_AGENTS, SITE_NOW, SITE_SEASON, seededSiteStore } from "../../../test-support/site/testing";

interface Standing {
  agentId: string;
  rank: number | null;
  score: number | null;
  reason: string | null;
  seal: string;
  creator: string;
  style: string;
  terms: Record<string, number | null>;
  multiplier: number | null;
}

for (const backend of testBackends()) {
  describe(`site read views under /api/v1 on ${backend.name}`, () => {
    let store: Store;
    let app: FastifyInstance;
    const get = async (url: string) => {
      const res = await app.inject({ method: "GET", url });
      return { status: res.statusCode, body: res.json() as Record<string, unknown> };
    };

    before(async () => {
      store = await seededSiteStore(() => backend.open());
      app = await buildApp({ store, chainId: TEST_CHAIN_ID, now: () => SITE_NOW });
    });
    after(async () => {
      await app.close();
      await store.close();
    });

    it("standings list the engine leaderboard's rows, in its order, with the same rank, score and seal", async () => {
      const board = (await get(`/api/v1/seasons/${SITE_SEASON}/leaderboard`)).body.rows as Standing[];
      const standings = await get(`/api/v1/seasons/${SITE_SEASON}/standings`);
      expect(standings.status).to.equal(200);
      const rows = standings.body.rows as Standing[];
      expect(standings.body.total).to.equal(board.length);
      expect(
        rows.map(({ agentId, rank, score, reason, seal }) => ({ agentId, rank, score, reason, seal })),
      ).to.deep.equal(board);
      const ada = rows.find((r) => r.agentId === "ada")!;
      expect(ada.style).to.equal("momentum");
      expect(ada.creator).to.match(/^0x[0-9a-f]{40}$/);
      expect(ada.multiplier).to.be.a("number");
      expect(Object.keys(ada.terms)).to.include.members(["performance", "risk", "calibration"]);
    });

    it("pages by rank across ranked and unranked rows, and sorts by other columns both ways", async () => {
      const all = (await get(`/api/v1/seasons/${SITE_SEASON}/standings`)).body.rows as Standing[];
      const paged: Standing[] = [];
      for (let offset = 0; offset < all.length; offset += 2) {
        paged.push(
          ...((await get(`/api/v1/seasons/${SITE_SEASON}/standings?limit=2&offset=${offset}`)).body
            .rows as Standing[]),
        );
      }
      expect(paged.map((r) => r.agentId)).to.deep.equal(all.map((r) => r.agentId));
      const desc = (await get(`/api/v1/seasons/${SITE_SEASON}/standings?sort=rank&order=desc`)).body
        .rows as Standing[];
      const ranked = desc.filter((r) => r.rank !== null).map((r) => r.rank!);
      expect(ranked).to.deep.equal([...ranked].sort((a, b) => b - a));
      expect(desc.slice(ranked.length).every((r) => r.rank === null)).to.equal(true);
      const byAgent = (await get(`/api/v1/seasons/${SITE_SEASON}/standings?sort=agent&order=desc`)).body
        .rows as Standing[];
      expect(byAgent.map((r) => r.agentId)).to.deep.equal(
        all
          .map((r) => r.agentId)
          .sort()
          .reverse(),
      );
    });

    it("history, referee, risk, stewardship and consensus answer with the seeded data", async () => {
      const history = await get(`/api/v1/agents/ada/history?season_id=${SITE_SEASON}`);
      expect(history.status).to.equal(200);
      expect((history.body.snapshots as unknown[]).length).to.equal(7);
      expect((history.body.calls as unknown[]).length).to.equal(12);
      // The referee is served by the pinned routes only (GET /api/v1/referee/…), not a site view.
      expect((await get(`/api/v1/seasons/${SITE_SEASON}/referee`)).status).to.equal(404);
      const referee = await get(`/api/v1/referee/${SITE_SEASON}`);
      const agents = referee.body.agents as { agent: string; status: string }[];
      expect(agents.find((a) => a.agent === "ada")?.status).to.equal("ranked");
      for (const a of agents) {
        const detail = await get(`/api/v1/referee/${SITE_SEASON}/agents/${a.agent}`);
        const counts = (detail.body.histogram as { counts: number[] }).counts;
        expect(counts.reduce((x, y) => x + y, 0)).to.equal(2048);
      }
      const risk = await get(`/api/v1/seasons/${SITE_SEASON}/risk`);
      const fay = (
        risk.body.rows as { vault_id: string; score: number | null; reason: string | null }[]
      ).find((r) => r.vault_id === SITE_AGENTS.riskUnmeasurable);
      expect(fay).to.deep.include({ score: null, reason: "insufficient_measurable" });
      expect((await get("/api/v1/stewardship")).body.state).to.equal(null);
      expect((await get("/api/v1/consensus")).body.markets).to.have.length(2);
    });

    it("refuses bad input with 4xx and a JSON error, and the views are in the OpenAPI document", async () => {
      expect((await get("/api/v1/seasons/nope/standings")).status).to.equal(404);
      expect((await get(`/api/v1/seasons/${SITE_SEASON}/standings?sort=bogus`)).status).to.equal(400);
      expect((await get(`/api/v1/seasons/${SITE_SEASON}/standings?limit=0`)).status).to.equal(400);
      expect((await get(`/api/v1/agents/nobody/history?season_id=${SITE_SEASON}`)).body).to.deep.include({
        error: { code: "UNKNOWN_AGENT", message: `agent nobody is not registered in season ${SITE_SEASON}` },
      });
      expect((await get("/api/v1/referee/nope")).status).to.equal(404);
      expect((await get("/api/v1/seasons/nope/risk")).status).to.equal(404);
      const paths = Object.keys((await get("/api/v1/openapi.json")).body.paths as object);
      expect(paths).to.include.members([
        "/api/v1/seasons/{id}/standings",
        "/api/v1/agents/{id}/history",
        "/api/v1/stewardship",
      ]);
    });
  });
}
