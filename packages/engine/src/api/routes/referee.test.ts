import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { MONKEYS, seal, type RefereeInput, type RefereeLeaderboardJson } from "@augur/scorer";
import { HOUR_SECONDS } from "../../closes/record";
import { runCycle } from "../../cycle/run";
import { recordAnchor } from "../../keeper/anchor-head";
import { anchorStep, refereeStep } from "../../cycle/steps";
import { appendEngineRecords } from "../../store/append";
import type { RefereeBoardBody } from "../../referee/board";
import { testCallRecord } from "../../../test-support/referee/testing";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../app";
import { main } from "../../cli/main";
import { fakeIo } from "../../../test-support/cli/testing";
import { addTestSeason, TEST_CHAIN_ID } from "../../../test-support/records/testing";
import { type RefereeAgentDetail, RefereeBoardMismatchError, RefereeBoards } from "../../referee/served";
import { SITE_NOW, SITE_SEASON, seededSiteStore, TSLA } from "../../../test-support/site/testing";
import type { Store } from "../../store/open";
import { testBackends } from "../../../test-support/store/testing";

/** `GET /api/v1/referee/:epoch/board`. */
interface BoardView {
  epoch: string;
  asOf: number;
  seal: string;
  leafIndex: number;
  anchor: { status: string; anchorIndex?: number };
  body: RefereeBoardBody;
}

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
      const sealed = await get<BoardView>(`/api/v1/referee/${SITE_SEASON}/board`);
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
        const detail = await get<RefereeAgentDetail & { board: { seal: string; asOf: number } }>(
          `/api/v1/referee/${SITE_SEASON}/agents/${agent.agent}`,
        );
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
        const { pending_calls, monkeys_below, monkeys_equal, histogram, board: ref, ...pinned } = detail.body;
        expect(pinned).to.deep.equal(JSON.parse(cli.out));
        expect(pending_calls).to.equal(agent.pending_calls);
        expect(detail.body.monkeys).to.have.length(MONKEYS);
        expect(histogram.counts.reduce((a, b) => a + b, 0)).to.equal(MONKEYS);
        expect((100 * (monkeys_below + monkeys_equal / 2)) / MONKEYS).to.equal(agent.percentile);
        expect(ref).to.deep.include({ seal: sealed.body.seal, asOf: sealed.body.asOf });
      }
    });

    it("serves the sealed board: its body hashes to its seal, anchored by the next cycle", async () => {
      const { status, body } = await get<BoardView>(`/api/v1/referee/${SITE_SEASON}/board`);
      expect(status).to.equal(200);
      expect(seal(body.body)).to.equal(body.seal);
      const row = await store.db.selectFrom("referee_boards").selectAll().executeTakeFirstOrThrow();
      expect([body.seal, body.leafIndex, body.asOf]).to.deep.equal([row.seal, row.leaf_index, row.as_of]);
      expect(JSON.parse(row.body)).to.deep.equal(body.body);
      // The fixture's second cycle anchored the head that holds the board's leaf.
      expect(body.anchor.status).to.equal("anchored");
      expect(await store.log.leafIndexOf(store.db, body.seal as `0x${string}`)).to.equal(body.leafIndex);
      const board = await get<RefereeLeaderboardJson>(`/api/v1/referee/${SITE_SEASON}`);
      expect(board.body).to.deep.equal(body.body.leaderboard);
      expect(body.body.inputSeal).to.equal(board.body.input_seal);
    });

    it("refuses to serve a detail whose recomputed agent differs from the board's numbers", async () => {
      const boards = new RefereeBoards(store.db);
      const board = (await boards.latest(SITE_SEASON))!;
      expect(await boards.agentDetail(board, "cy")).to.include({ agent: "cy" });
      expect(await boards.agentDetail(board, "nobody")).to.equal(undefined);
      const agents = board.body.leaderboard.agents.map((a) =>
        a.agent === "cy" ? { ...a, sum_r: a.sum_r + 1e-9 } : a,
      );
      const tampered = {
        ...board,
        body: { ...board.body, leaderboard: { ...board.body.leaderboard, agents } },
      };
      const error = await boards.agentDetail(tampered, "cy").then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(RefereeBoardMismatchError);
      expect(String(error)).to.contain(`agent cy of epoch ${SITE_SEASON} recomputes differently`);
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

    it("404 with a message for an unknown epoch or agent, 400 for a malformed one, and before the first board", async () => {
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
      for (const path of ["", "/board", "/input", "/agents/ada"]) {
        const none = await get(`/api/v1/referee/s2${path}`);
        expect([none.status, none.body.error?.code], path).to.deep.equal([404, "NO_REFEREE_BOARD"]);
        expect(none.body.error?.message).to.match(/season s2 has no referee board yet/);
      }
      const paths = Object.keys((await get<{ paths: object }>("/api/v1/openapi.json")).body.paths);
      expect(paths).to.include.members([
        "/api/v1/referee/{epoch}",
        "/api/v1/referee/{epoch}/agents/{id}",
        "/api/v1/referee/{epoch}/input",
        "/api/v1/referee/{epoch}/board",
      ]);
    });

    it("never runs the referee in a request: anchored calls after the board change nothing until the cycle", async () => {
      const paths = ["", "/board", "/input", "/agents/ada", "/agents/cy"].map(
        (p) => `/api/v1/referee/${SITE_SEASON}${p}`,
      );
      const before = await Promise.all(paths.map((p) => app.inject({ method: "GET", url: p })));
      // A call on cy's schedule, and an anchor covering it: a route computing from the
      // anchored log would now answer differently.
      const hour = Math.floor(SITE_NOW / HOUR_SECONDS) - 30;
      await store.db.transaction().execute((trx) =>
        appendEngineRecords(
          trx,
          [
            testCallRecord({
              agentId: "cy",
              seasonId: SITE_SEASON,
              callId: 9999,
              asset: TSLA,
              revealedAt: hour * HOUR_SECONDS - 60,
              windowHours: 1,
              direction: "up",
              confidenceBps: 10_000,
            }),
          ],
          SITE_NOW,
        ),
      );
      const size = await store.log.size(store.db);
      const last = await store.db
        .selectFrom("anchors")
        .selectAll()
        .orderBy("anchor_index", "desc")
        .executeTakeFirstOrThrow();
      await recordAnchor(
        store,
        {
          anchorIndex: last.anchor_index + 1,
          treeSize: size,
          root: await store.log.root(store.db, size),
          chainId: last.chain_id,
          registry: last.registry,
          txHash: `0x${"c1".repeat(32)}`,
          blockNumber: last.block_number + 1,
          blockHash: `0x${"c2".repeat(32)}`,
          anchoredAt: SITE_NOW,
        },
        SITE_NOW,
      );
      const after = await Promise.all(paths.map((p) => app.inject({ method: "GET", url: p })));
      for (const [i, res] of after.entries()) {
        expect([res.statusCode, res.body], paths[i]).to.deep.equal([before[i]!.statusCode, before[i]!.body]);
      }

      // The cycle of a later hour seals a new board with the call; the routes serve it at once.
      const cycle = await runCycle({
        store,
        steps: [anchorStep(), refereeStep()],
        now: () => SITE_NOW + 3 * HOUR_SECONDS,
      });
      expect(cycle.refereeBoards).to.be.at.least(1);
      const sealed = await store.db
        .selectFrom("referee_boards")
        .select("seal")
        .where("season_id", "=", SITE_SEASON)
        .execute();
      expect(sealed).to.have.length(2);
      const cy = await get<{ scored_calls: number; board: { seal: string; anchor: { status: string } } }>(
        `/api/v1/referee/${SITE_SEASON}/agents/cy`,
      );
      const was = JSON.parse(before[4]!.body) as { scored_calls: number; board: { seal: string } };
      expect(cy.body.scored_calls).to.equal(was.scored_calls + 1);
      expect(cy.body.board.seal).to.not.equal(was.board.seal);
      expect(cy.body.board.anchor.status).to.equal("pending");
      const input = await get<RefereeInput>(`/api/v1/referee/${SITE_SEASON}/input`);
      const board = await get<RefereeLeaderboardJson>(`/api/v1/referee/${SITE_SEASON}`);
      expect(board.body.input_seal).to.equal(seal(input.body));
      expect(board.body.input_seal).to.not.equal(
        (JSON.parse(before[0]!.body) as RefereeLeaderboardJson).input_seal,
      );
    });
  });
}
