import { expect } from "chai";
import type { FastifyInstance } from "fastify";
import type { Store } from "../../store/open";
import { testBackends } from "../../../test-support/store/testing";
import { addTestScore, anchorWholeLog, testApp } from "../../../test-support/api/testing";
import { addTestSeason, registerTestAgent, TEST_NOW } from "../../../test-support/records/testing";
import { ingestRecord, type Submission } from "../../records/ingest";
import { TEST_CHAIN_ID } from "../../../test-support/records/testing";

const HOUR = 3600;

// Issue 17, hole 4: a score row can be read as of any hour, and the whole history of an agent's
// rows with each one's anchor status.
for (const backend of testBackends()) {
  describe(`score history routes (${backend.name})`, () => {
    let store: Store;
    let app: FastifyInstance;
    const t0 = Math.floor(TEST_NOW / HOUR) * HOUR;
    const get = async (url: string) => {
      const res = await app.inject(url);
      return { status: res.statusCode, body: res.json() };
    };

    before(async () => {
      store = await backend.open();
      await addTestSeason(store);
      await registerTestAgent(
        (s: Submission) =>
          ingestRecord(store, s, { chainId: TEST_CHAIN_ID, now: () => TEST_NOW, recordGrace: Infinity }),
        "alpha",
      );
      for (let h = 0; h < 5; h += 1) {
        await addTestScore(store, {
          agentId: "alpha",
          seasonId: "s1",
          asOf: t0 + h * HOUR,
          score: 50 + h,
          reason: null,
          rank: 1,
        });
        if (h === 2) await anchorWholeLog(store, 0); // hours 0–2 anchored, 3–4 pending
      }
      app = await testApp(store);
    });
    after(async () => {
      await app.close();
      await store.close();
    });

    it("serves the row in force at as_of, the latest without it", async () => {
      const latest = await get("/api/v1/agents/alpha/score?season_id=s1");
      expect(latest.body).to.include({ asOf: t0 + 4 * HOUR, score: 54 });
      expect(latest.body.anchor.status).to.equal("pending");
      const at = await get(`/api/v1/agents/alpha/score?season_id=s1&as_of=${t0 + 2 * HOUR + 1800}`);
      expect(at.status).to.equal(200);
      expect(at.body).to.include({ asOf: t0 + 2 * HOUR, score: 52 });
      expect(at.body.anchor.status).to.equal("anchored");
      const exact = await get(`/api/v1/agents/alpha/score?season_id=s1&as_of=${t0 + HOUR}`);
      expect(exact.body).to.include({ asOf: t0 + HOUR, score: 51 });
      const before = await get(`/api/v1/agents/alpha/score?season_id=s1&as_of=${t0 - 1}`);
      expect(before.status).to.equal(404);
      expect(before.body.error.code).to.equal("NO_SCORE");
      expect(before.body.error.message).to.contain(`at or before ${t0 - 1}`);
      expect((await get("/api/v1/agents/alpha/score?season_id=s1&as_of=-1")).status).to.equal(400);
    });

    it("pages every sealed row newest first, each with its anchor status", async () => {
      const first = await get("/api/v1/agents/alpha/scores?season_id=s1&limit=2");
      expect(first.status).to.equal(200);
      expect(first.body.rows.map((r: { asOf: number }) => r.asOf)).to.deep.equal([
        t0 + 4 * HOUR,
        t0 + 3 * HOUR,
      ]);
      expect(first.body.rows.map((r: { anchor: { status: string } }) => r.anchor.status)).to.deep.equal([
        "pending",
        "pending",
      ]);
      expect(first.body.next).to.equal(t0 + 3 * HOUR);
      const second = await get(`/api/v1/agents/alpha/scores?season_id=s1&limit=2&before=${first.body.next}`);
      expect(second.body.rows.map((r: { score: number }) => r.score)).to.deep.equal([52, 51]);
      expect(second.body.rows[0].anchor).to.include({ status: "anchored", anchorIndex: 0 });
      const last = await get(`/api/v1/agents/alpha/scores?season_id=s1&limit=2&before=${second.body.next}`);
      expect(last.body.rows.map((r: { score: number }) => r.score)).to.deep.equal([50]);
      expect(last.body.next).to.equal(null);
      const all = await get("/api/v1/agents/alpha/scores?season_id=s1");
      expect(all.body.rows).to.have.length(5);
      expect(all.body.rows[0]).to.have.keys([
        "asOf",
        "formula",
        "score",
        "reason",
        "rank",
        "terms",
        "seal",
        "leafIndex",
        "anchor",
      ]);
    });

    it("answers 404 for an unknown agent and 400 for a bad limit", async () => {
      const unknown = await get("/api/v1/agents/nobody/scores?season_id=s1");
      expect([unknown.status, unknown.body.error.code]).to.deep.equal([404, "UNKNOWN_AGENT"]);
      expect((await get("/api/v1/agents/alpha/scores?season_id=s1&limit=0")).status).to.equal(400);
      expect((await get("/api/v1/agents/alpha/scores?season_id=s1&limit=1001")).status).to.equal(400);
    });
  });
}
