import { expect } from "chai";
import { seal as sealOf } from "@augur/scorer";
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { buildApp } from "../api/app";
import { runCycle } from "../cycle/run";
import { anchorStep, modesStep, scoreStep } from "../cycle/steps";
import { CountingScorer, FakeKeeper } from "../../test-support/cycle/testing";
import { registration, sign, snapshot, TEST_CHAIN_ID, testWallet } from "../../test-support/records/testing";
import type { Store } from "../store/open";
import { latestAnchor } from "../store/queries/anchors";
import { getFinalNotice, insertFinalNotice } from "../store/queries/final-notice";
import { appendModeRecord } from "../store/queries/modes";
import { insertSeason } from "../store/queries/seasons";
import { testBackends } from "../../test-support/store/testing";
import { addDays, checkedDay } from "./days";
import { FinalNoticeSealedError, SpendRefusedError } from "./errors";
import { sealFinalNotice } from "./final";
import { assertMaySpend } from "./guard";
import { writeNotice } from "./notices";
import { methodologyNoticeBody } from "./records";
import { currentMode, modeHistory } from "./state";
import { referenceHistory, scriptedDays, sitePages } from "../../test-support/modes/testing";

const START = "2027-01-15";
const dayN = (n: number) => addDays(START, n);
const noonOf = (n: number) => checkedDay(dayN(n), "day") * 86_400 + 12 * 3600;
const DAYS = scriptedDays(referenceHistory(), START);
const PAGES = sitePages("long", "ada");

describe("modes in the engine: cycle, API, site", function () {
  this.timeout(120_000);

  for (const backend of testBackends()) {
    describe(`on ${backend.name}`, () => {
      let store: Store;
      let app: FastifyInstance;
      let clock = noonOf(0);
      const agent = testWallet("agent ada");
      const creator = testWallet("creator of ada");

      before(async () => {
        store = await backend.open();
        await insertSeason(store.db, {
          id: "long",
          name: "Long season",
          starts_at: noonOf(0) - 12 * 3600,
          ends_at: noonOf(0) + 100 * 86_400,
          closed_at: null,
          created_at: noonOf(0) - 86_400,
        });
        app = await buildApp(
          { store, chainId: TEST_CHAIN_ID, now: () => clock },
          { writesPerMinute: 1_000_000 },
        );
      });
      after(async () => {
        await app?.close();
        await store?.close();
      });

      const post = async (body: unknown) =>
        app.inject({ method: "POST", url: "/api/v1/records", payload: body as object });

      it("follows the stewardship days: maintenance on day 39, active on day 45, wind-down on day 70, then archived", async () => {
        const keeper = new FakeKeeper();
        const scorer = new CountingScorer();
        const reg = await post(
          await sign(
            "Registration",
            { ...registration("ada", agent, creator, "long"), registeredAt: clock },
            agent,
            creator,
          ),
        );
        expect(reg.statusCode, reg.body).to.equal(201);

        const modes: string[] = [];
        let sealedScores: { seal: string; body: string }[] = [];
        for (let d = 0; d < 75; d += 1) {
          clock = noonOf(d);
          const mode = (await currentMode(store.db)).mode;
          const sizeBefore = await store.log.size(store.db);
          const res = await post(
            await sign("Snapshot", snapshot("ada", clock, String(1_000_000_000 + d), "long"), agent),
          );
          if (mode === "wind-down" || mode === "archived") {
            expect(res.statusCode).to.equal(410);
            expect(res.json().error.code).to.equal("WINDING_DOWN");
            expect(res.json().error.message).to.match(
              new RegExp(
                `^the system is winding down since ${dayN(70)} \\(the holder and volume triggers both fired`,
              ),
            );
            expect(await store.log.size(store.db)).to.equal(sizeBefore); // nothing stored
          } else expect(res.statusCode, res.body).to.equal(201);

          if (d === 5) {
            // A methodology notice: announced 14 days ahead, the scores sealed so far never change.
            await writeNotice(
              store,
              "methodology",
              dayN(19),
              methodologyNoticeBody("counting/v2", dayN(19), dayN(5)),
              clock,
            );
            sealedScores = await sql<{
              seal: string;
              body: string;
            }>`SELECT r.seal, r.body FROM records r WHERE r.kind = 'score' ORDER BY r.seal`
              .execute(store.db)
              .then((r) => r.rows);
            expect(sealedScores).to.have.length.greaterThan(0);
          }
          // Three keeper calls a run (the anchor step, the mode step's final anchor, the end-of-pass
          // anchor), two runs: mined a day later.
          if (d === 70) keeper.pendingCalls = 6;
          const report = await runCycle({
            store,
            steps: [anchorStep(keeper), scoreStep(scorer), modesStep(async () => DAYS.slice(0, d + 1))],
            now: () => clock,
          });
          modes.push(report.mode!.mode);
          if (d === 40) {
            let refused: unknown;
            await assertMaySpend(store.db, "funding a house agent").catch((e: unknown) => (refused = e));
            expect(refused).to.be.instanceOf(SpendRefusedError);
            expect((refused as Error).message).to.match(
              new RegExp(
                `^refused: funding a house agent is new spend, and the system is in maintenance mode since ${dayN(39)} \\(organic volume stayed under`,
              ),
            );
            const page = await app.inject("/stewardship");
            expect(page.body).to.contain(`Maintenance mode since ${dayN(39)}`);
          }
          // A rerun of the same cycle writes no second mode record (checked around each change).
          if ([0, 39, 40, 45, 70, 71, 74].includes(d))
            expect(
              (
                await runCycle({
                  store,
                  steps: [anchorStep(keeper), scoreStep(scorer), modesStep(async () => DAYS.slice(0, d + 1))],
                  now: () => clock,
                })
              ).mode!.written,
            ).to.equal(0);
        }
        const expected = (d: number) =>
          d < 39
            ? "active"
            : d < 45
              ? "maintenance"
              : d < 70
                ? "active"
                : d === 70
                  ? "wind-down"
                  : "archived";
        expect(modes).to.deep.equal(Array.from({ length: 75 }, (_, d) => expected(d)));

        const history = await modeHistory(store.db);
        expect(history.map((m) => [m.mode, m.since, m.declared, m.cause.kind])).to.deep.equal([
          ["maintenance", dayN(39), dayN(39), "trigger"],
          ["active", dayN(45), dayN(45), "trigger"],
          ["wind-down", dayN(70), dayN(70), "trigger"],
          ["archived", dayN(71), dayN(71), "final-anchor"],
        ]);
        expect(history[0]!.cause).to.deep.equal({
          kind: "trigger",
          trigger: "volume",
          day: dayN(39),
          seal: DAYS[39]!.seal,
        });
        expect(history.map((m) => m.previous)).to.deep.equal([
          null,
          ...history.slice(0, 3).map((m) => m.seal),
        ]);
        // The archived record names the anchor covering everything before it, and is anchored itself.
        const archived = history[3]!;
        expect(archived.cause).to.include({ kind: "final-anchor", treeSize: archived.leafIndex });
        expect((await latestAnchor(store.db))!.tree_size).to.equal(await store.log.size(store.db));

        // Scores sealed before the methodology notice are byte for byte what they were.
        const seals = sealedScores.map((s) => s.seal);
        const now = await store.db
          .selectFrom("records")
          .select(["seal", "body"])
          .where("seal", "in", seals)
          .orderBy("seal")
          .execute();
        expect(now).to.deep.equal(sealedScores);
        let refused = false;
        await sql`UPDATE records SET body = '{}' WHERE seal = ${seals[0]}`
          .execute(store.db)
          .catch(() => (refused = true));
        expect(refused).to.equal(true);
      });

      it("the archive serves every page with its banner, every proof, and no write", async () => {
        for (const path of PAGES) {
          const res = await app.inject(path);
          expect(res.statusCode, `${path}: ${res.body.slice(0, 300)}`).to.equal(200);
          expect(res.body, path).to.contain(`Read-only archive since ${dayN(71)}`);
        }
        // A bad link too: the 404 page carries the banner like every page.
        const missing = await app.inject("/no-such-page");
        expect(missing.statusCode).to.equal(404);
        expect(missing.body).to.contain(`Read-only archive since ${dayN(71)}`);
        const leaves = await store.db
          .selectFrom("merkle_leaves")
          .select("seal")
          .orderBy("leaf_index")
          .execute();
        expect(leaves.length).to.be.greaterThan(140); // snapshots, scores, modes, the notice
        for (const { seal } of leaves) {
          const proof = await app.inject(`/api/v1/anchors/leaves/${seal}`);
          expect(proof.statusCode, seal).to.equal(200);
          expect(proof.json().status).to.equal("anchored");
        }
        const mode = (await app.inject("/api/v1/mode")).json();
        expect(mode).to.include({ mode: "archived", since: dayN(71) });
        expect(mode.notices).to.have.length(1);
        expect(mode.notices[0]).to.include({ notice: "methodology", formula: "counting/v2", pending: false });
        // Mode records are append-only in the database itself, on both backends.
        let rewritten = true;
        await sql`UPDATE mode_records SET day = '2000-01-01'`
          .execute(store.db)
          .catch(() => (rewritten = false));
        expect(rewritten).to.equal(false);
        const write = await app.inject({ method: "PUT", url: "/api/v1/records/anything", payload: {} });
        expect(write.statusCode).to.equal(410);
        let refused: unknown;
        await writeNotice(
          store,
          "methodology",
          dayN(99),
          methodologyNoticeBody("counting/v3", dayN(99), dayN(75)),
          clock,
        ).catch((e: unknown) => (refused = e));
        expect((refused as Error).message).to.match(/^refused: the system is archived since/);
      });

      it("the accounts post one final message and stop: the final notice is sealed naming the final receipt's seal, the site's archive shows it, it is posted, and nothing after it", async () => {
        const posted: string[] = [];
        const postOnChain = async (seal: string) => {
          posted.push(seal);
          return {
            chainId: TEST_CHAIN_ID,
            registry: `0x${"ab".repeat(20)}`,
            txHash: `0x${"cd".repeat(32)}`,
            blockNumber: 77,
          };
        };
        const refusal = (args: { words: string }) =>
          sealFinalNotice(store, { ...args, now: clock, post: postOnChain }).then(
            () => "sealed",
            (e: Error) => e.message,
          );
        // It names the final receipt: refused until one is saved, and with no last words.
        expect(await refusal({ words: "Thank you, and goodbye." })).to.match(/save one first/);
        const receipt = { format: "augur-receipt/v2", note: "a saved receipt" };
        await store.db
          .transaction()
          .execute((trx) => appendModeRecord(trx, { kind: "receipt", day: dayN(75), body: receipt }, clock));
        expect(await refusal({ words: "  " })).to.match(/^words: is required/);
        expect(posted).to.deep.equal([]);

        const size = await store.log.size(store.db);
        const { seal, body } = await sealFinalNotice(store, {
          words: "Thank you, and goodbye.",
          now: clock,
          post: postOnChain,
        });
        expect(posted).to.deep.equal([seal]);
        const archived = (await modeHistory(store.db)).pop()!;
        expect(body).to.deep.include({
          words: "Thank you, and goodbye.",
          receipt: sealOf(receipt),
          archived: archived.seal,
        });
        expect(body.finalAnchor).to.include({
          treeSize: size,
          anchorIndex: (await latestAnchor(store.db))!.anchor_index,
        });
        const row = (await getFinalNotice(store.db))!;
        expect(sealOf(JSON.parse(row.body))).to.equal(seal);
        expect(row).to.include({ tx_hash: `0x${"cd".repeat(32)}`, block_number: 77 });

        // The archive shows it on every page, with the receipt's seal.
        const page = await app.inject("/mode");
        expect(page.body)
          .to.contain("Thank you, and goodbye.")
          .and.to.contain(seal)
          .and.to.contain(sealOf(receipt));
        expect((await app.inject("/api/v1/mode")).json().finalNotice).to.include({
          seal,
          receipt: sealOf(receipt),
        });

        // Nothing after it: a second notice, the cycle, and ingestion refuse with a typed error.
        expect(await refusal({ words: "One more thing." })).to.match(
          /^the final notice 0x[0-9a-f]{64} is sealed/,
        );
        let cycle: unknown;
        await runCycle({ store, steps: [anchorStep(new FakeKeeper())], now: () => clock }).catch(
          (e: unknown) => (cycle = e),
        );
        expect(cycle).to.be.instanceOf(FinalNoticeSealedError);
        const res = await post({});
        expect(res.statusCode).to.equal(410);
        expect(res.json().error.code).to.equal("FINAL_NOTICE_SEALED");
        expect(await store.log.size(store.db)).to.equal(size);
        let rewritten = true;
        await sql`DELETE FROM final_notice`.execute(store.db).catch(() => (rewritten = false));
        expect(rewritten).to.equal(false);
        rewritten = true;
        await insertFinalNotice(store.db, { ...row, seal: `0x${"ee".repeat(32)}` }).catch(
          () => (rewritten = false),
        );
        expect(rewritten).to.equal(false);
        if (backend.name === "sqlite") {
          rewritten = true;
          await sql`INSERT OR REPLACE INTO final_notice SELECT * FROM final_notice`
            .execute(store.db)
            .catch(() => (rewritten = false));
          expect(rewritten).to.equal(false);
        }
        expect((await getFinalNotice(store.db))!.seal).to.equal(seal);
      });
    });
  }
});
