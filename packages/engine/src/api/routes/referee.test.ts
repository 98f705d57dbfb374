import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { MONKEYS, seal, type RefereeInput, type RefereeLeaderboardJson } from "@augur/scorer";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../app";
import { main } from "../../cli/main";
import { fakeIo } from "../../cli/testing";
import { addTestSeason, TEST_CHAIN_ID } from "../../records/testing";
import type { RefereeAgentDetail } from "../../referee/served";
import { SITE_NOW, SITE_SEASON, seededSiteStore } from "../../site/testing";
import type { Store } from "../../store/open";
import { testBackends } from "../../store/testing";

/** Runs `augur …` in process; returns the exit code and stdout. */
async function augur(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = fakeIo();
  const code = await main(argv, io);
  return { code, out: io.out(), err: io.err() };
}

for (const backend of testBackends()) {
  describe(`GET /api/v1/referee on ${backend.name}`, () => {
    let store: Store;
    let app: FastifyInstance;
    let dir: string;
    const get = async <T = Record<string, unknown>>(url: string) => {
      const res = await app.inject({ method: "GET", url });
      return {
        status: res.statusCode,
        body: res.json() as T & { error?: { code: string; message: string } },
      };
    };

    before(async () => {
      store = await seededSiteStore(() => backend.open());
      app = await buildApp({ store, chainId: TEST_CHAIN_ID, now: () => SITE_NOW });
      dir = mkdtempSync(join(tmpdir(), "augur-referee-route-"));
    });
    after(async () => {
      rmSync(dir, { recursive: true, force: true });
      await app.close();
      await store.close();
    });

    it("serves exactly what the scorer's referee computes from the same input file", async () => {
      const input = await get<RefereeInput>(`/api/v1/referee/${SITE_SEASON}/input`);
      expect(input.status).to.equal(200);
      const file = join(dir, "input.json");
      writeFileSync(file, JSON.stringify(input.body));
      const out = join(dir, "leaderboard.json");
      const run = await augur(
        "referee",
        "leaderboard",
        "--input",
        file,
        "--epoch",
        SITE_SEASON,
        "--out",
        out,
      );
      expect([run.code, run.err]).to.deep.equal([0, ""]);

      const board = await get<RefereeLeaderboardJson>(`/api/v1/referee/${SITE_SEASON}`);
      expect(board.status).to.equal(200);
      expect(board.body).to.deep.equal(JSON.parse(readFileSync(out, "utf8")));
      expect(board.body.input_seal).to.equal(seal(input.body));
      expect(board.body.agents.map((a) => a.agent).sort()).to.deep.equal(["ada", "bob", "cy", "eve"]);
      expect(board.body.agents[0]).to.include({ agent: "ada", status: "ranked", scored_calls: 12 });

      for (const agent of board.body.agents) {
        const detail = await get<RefereeAgentDetail>(`/api/v1/referee/${SITE_SEASON}/agents/${agent.agent}`);
        expect(detail.status).to.equal(200);
        const cli = await augur(
          "referee",
          "detail",
          "--input",
          file,
          "--agent",
          agent.agent,
          "--epoch",
          SITE_SEASON,
          "--json",
          "--monkeys",
        );
        expect(cli.code).to.equal(0);
        const { pending_calls, monkeys_below, monkeys_equal, histogram, ...pinned } = detail.body;
        expect(pinned).to.deep.equal(JSON.parse(cli.out));
        expect(pending_calls).to.equal(agent.pending_calls);
        expect(detail.body.monkeys).to.have.length(MONKEYS);
        expect(histogram.counts.reduce((a, b) => a + b, 0)).to.equal(MONKEYS);
        expect((100 * (monkeys_below + monkeys_equal / 2)) / MONKEYS).to.equal(agent.percentile);
      }
    });

    it("builds the input from the stored closes and every revealed call of the season", async () => {
      const { body } = await get<RefereeInput>(`/api/v1/referee/${SITE_SEASON}/input`);
      const calls = await store.db
        .selectFrom("records")
        .select("agent_id")
        .where("season_id", "=", SITE_SEASON)
        .where("kind", "=", "call")
        .execute();
      expect(body.predictions).to.have.length(calls.length);
      expect(body.epoch).to.equal(SITE_SEASON);
      const rows = await store.db.selectFrom("hourly_closes").selectAll().orderBy("at").execute();
      for (const [pair, closes] of Object.entries(body.closes)) {
        const mine = rows.filter((r) => r.asset === pair);
        expect(closes.map((c) => c.close)).to.deep.equal(mine.map((r) => r.close));
        expect(closes.map((c) => Date.parse(c.at) / 1000)).to.deep.equal(mine.map((r) => Number(r.at)));
      }
      expect(Object.keys(body.closes).sort()).to.deep.equal([...new Set(rows.map((r) => r.asset))].sort());
    });

    it("404 with a message for an unknown epoch or agent, 400 for a malformed one; empty for a season without calls", async () => {
      const unknown = await get("/api/v1/referee/nope");
      expect([unknown.status, unknown.body.error?.code]).to.deep.equal([404, "UNKNOWN_EPOCH"]);
      expect(unknown.body.error?.message).to.match(/season nope does not exist/);
      expect((await get("/api/v1/referee/nope/agents/ada")).status).to.equal(404);
      expect((await get("/api/v1/referee/nope/input")).status).to.equal(404);
      const noCalls = await get(`/api/v1/referee/${SITE_SEASON}/agents/dee`);
      expect([noCalls.status, noCalls.body.error?.code]).to.deep.equal([404, "UNKNOWN_AGENT"]);
      expect(noCalls.body.error?.message).to.equal(`agent dee has no scorable call in epoch ${SITE_SEASON}`);
      for (const [bad, param] of [
        ["/api/v1/referee/Not%20Ok", "epoch"],
        [`/api/v1/referee/${SITE_SEASON}/agents/UPPER!`, "id"],
      ] as const) {
        const res = await get(bad);
        expect([res.status, res.body.error?.code], bad).to.deep.equal([400, "INVALID_INPUT"]);
        expect(res.body.error?.message, bad).to.contain(param);
      }
      await addTestSeason(store, "s2");
      const empty = await get<RefereeLeaderboardJson>("/api/v1/referee/s2");
      expect(empty.status).to.equal(200);
      expect([empty.body.agents, empty.body.mu]).to.deep.equal([[], []]);
      const paths = Object.keys((await get<{ paths: object }>("/api/v1/openapi.json")).body.paths);
      expect(paths).to.include.members([
        "/api/v1/referee/{epoch}",
        "/api/v1/referee/{epoch}/agents/{id}",
        "/api/v1/referee/{epoch}/input",
      ]);
    });
  });
}
