import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { expect } from "chai";
import type { Browser, BrowserContext } from "playwright-core";
import { runCli as augur } from "@augur/engine";
import { launchChromium, visit } from "@augur/engine/test-support";
import { CALL_WINDOW, demoAgents } from "../../scripts/start/agents";
import { parseStartOptions } from "../../scripts/start/options";
import { SCORED_ROW } from "../../scripts/start/table";
import {
  agentPageBetweenEqualScores,
  apiJson,
  demoContexts,
  demoPages,
  demoShot,
  overflowingOnPhone,
} from "./demo-site";
import { eventually, startDemo, waitFor, type Demo } from "./process";

const SEASON = "demo";

/** `augur <argv>` in this process: its exit code and everything it printed. */
async function runAugur(argv: string[]): Promise<{ code: number; out: string }> {
  const stdout = new PassThrough();
  let out = "";
  stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  const code = await augur(argv, { stdout, stderr: stdout, stdin: new PassThrough() });
  return { code, out };
}

// The demo runs until this test stops it with SIGTERM (as Ctrl-C would), once every check has
// looked at the running system; --duration only bounds a run whose test died half-way.
const START_ARGS = ["--ci", "--port", "0", "--duration", "150", "--hour-ms", "300"];

describe("npm start (smoke test, --ci)", function () {
  this.timeout(300_000);
  const agents = demoAgents(parseStartOptions(START_ARGS).agents, ["A", "B", "C"]);
  let started: number;
  let dataDir: string;
  let demo: Demo;
  let origin: string;
  let rpc: string;
  let registry: string;
  let oracle: string;
  let quoter: string;
  /** An agent the demo's table printed with a score. */
  let scored: string;
  let browser: Browser;
  let desktop: BrowserContext;
  let phone: BrowserContext;

  before(async () => {
    started = Date.now();
    dataDir = mkdtempSync(join(tmpdir(), "augur-start-"));
    demo = startDemo([...START_ARGS, "--data-dir", dataDir]);
    // Chromium starts while the demo deploys and plays its first hours.
    const chromium = launchChromium();
    const [, api] = (await waitFor(demo, /^api\s+(\S+)$/m)) as [string, string];
    origin = api.replace(/\/api\/v1$/, "");
    [, rpc] = (await waitFor(demo, /^chain\s+(\S+)/m)) as [string, string];
    [, registry] = (await waitFor(demo, /^registry\s+(0x[0-9a-fA-F]{40})$/m)) as [string, string];
    [, oracle] = (await waitFor(demo, /^oracle\s+(0x[0-9a-fA-F]{40})$/m)) as [string, string];
    [, quoter] = (await waitFor(demo, /^quoter\s+(0x[0-9a-fA-F]{40})$/m)) as [string, string];
    // A table row with a number in the score column: "  <agent> <style> <score> <rank> …"
    [, scored] = (await waitFor(demo, SCORED_ROW)) as [string, string];
    browser = await chromium;
    ({ desktop, phone } = await demoContexts(browser));
  });

  after(async () => {
    await desktop?.close();
    await phone?.close();
    await browser?.close();
    if (demo && !demo.exited()) demo.child.kill("SIGTERM");
    await demo?.exit;
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  // Mocha runs a suite's own tests before its child suites: every check sits in a child suite,
  // in the order they must run, so the stop comes last.
  describe("the running demo", () => {
    /** `augur verify` of the scored agent against the running demo, `extra` flags after the chain's. */
    async function verifyScored(...extra: string[]) {
      return verifyAgent(scored, ...extra);
    }

    /** `augur verify` of `agent` against the running demo, `extra` flags after the chain's. */
    async function verifyAgent(agent: string, ...extra: string[]) {
      const verify = () =>
        runAugur([
          "verify",
          "--api",
          origin,
          "--agent",
          agent,
          "--season",
          SEASON,
          "--rpc",
          rpc,
          "--registry",
          registry,
          ...extra,
        ]);
      // The demo scores, then anchors the scores a moment later in the same hour: a verify that
      // fetched a score in between finds it "not anchored yet". Only that case is retried.
      let verified = await verify();
      for (let attempt = 0; attempt < 3 && /not anchored yet/.test(verified.out); attempt += 1) {
        await new Promise((r) => setTimeout(r, 200));
        verified = await verify();
      }
      return verified;
    }

    it("comes up, anchors, and scores an agent that augur verify accepts", async () => {
      const { anchors } = await apiJson<{ anchors: Array<{ treeSize: number }> }>(origin, "/anchors");
      expect(anchors.length).to.be.greaterThan(0);
      expect(anchors[0]!.treeSize).to.be.greaterThan(0);

      const score = await apiJson<{ score?: unknown }>(origin, `/agents/${scored}/score?season_id=${SEASON}`);
      expect(JSON.stringify(score)).to.match(/"score":\d/);

      const verified = await verifyScored();
      expect(verified.code, verified.out).to.equal(0);
      expect(verified.out).to.match(/^verified: score \d+(\.\d)?$/m);
    });

    /**
     * A demo agent with a score whose book holds a measured trade: the first agent scored may not
     * have traded yet (agents trade only when their style reads a move), and the deep check must
     * re-measure a trade.
     */
    async function scoredTrader(): Promise<string> {
      let found: string | undefined;
      const hasScoreAndTrade = async (id: string) => {
        const score = await fetch(`${origin}/api/v1/agents/${id}/score?season_id=${SEASON}`);
        await score.arrayBuffer();
        if (score.status !== 200) return false;
        const { inputs } = await apiJson<{ inputs: unknown[] }>(
          origin,
          `/agents/${id}/inputs?season_id=${SEASON}&kind=trade`,
        );
        return inputs.length > 0;
      };
      await eventually(
        async () => {
          for (const { id } of agents) if (await hasScoreAndTrade(id)) return Boolean((found = id));
          return false;
        },
        120_000,
        "a scored demo agent with a measured trade",
      );
      return found!;
    }

    it("augur verify --deep --rpc re-measures the agent's snapshots and trades from its wallet on the chain", async () => {
      const verified = await verifyAgent(
        await scoredTrader(),
        "--deep",
        // The first and the last snapshot and up to two trades: the paths 3 would take (it adds a
        // middle snapshot and a third trade), in 4 re-measurements rather than 6.
        "--remeasure",
        "2",
        "--oracle",
        oracle,
        "--quoter",
        quoter,
      );
      expect(verified.code, verified.out).to.equal(0);
      expect(verified.out).not.to.contain("FAILED");
      expect(
        verified.out.match(/^deep passed: snapshot 0x[0-9a-f]{8}… re-measured: \d+ fields equal/gm),
      ).to.have.length(2);
      expect(verified.out).to.match(/^deep passed: trade 0x[0-9a-f]{8}… re-measured: \d+ fields equal/m);
      expect(verified.out).to.match(/^deep passed: pooled totals: every pooled balance is the sum/m);
    });

    it("seals the demo token's scripted days: the stewardship monitor has real data", async () => {
      const stewardship = await apiJson<{
        state: string | null;
        days: Array<{ holders: number; organicVolumeUsd: number; clusters: number; seal: string }>;
        lpLock: { lock: string; holder: string; liquidity: string; alarm: string | null } | null;
        lpLockAlarm: unknown;
      }>(origin, "/stewardship");
      expect(stewardship.state).to.equal("normal");
      expect(stewardship.days.length).to.be.at.least(4);
      expect(stewardship.days.at(-1)!.holders).to.be.at.least(60);
      expect(stewardship.days.at(-1)!.organicVolumeUsd).to.be.greaterThan(0);
      expect(stewardship.days.at(-1)!.clusters).to.equal(1); // the wash wallet's round trips, rule (b)
      // The DEMO pool's position sits in its LiquidityLock, read and sealed with every day: no alarm.
      expect(stewardship.lpLock).to.include({ alarm: null });
      expect(stewardship.lpLock!.holder).to.equal(stewardship.lpLock!.lock);
      expect(BigInt(stewardship.lpLock!.liquidity)).to.be.greaterThan(0n);
      expect(stewardship.lpLockAlarm).to.equal(null);
    });
  });

  describe("the site, on the demo season while it runs (headless Chromium)", () => {
    const pages = () => demoPages(SEASON, scored);

    it("leaderboard: every demo agent with its declared style and its creator by name, the demo season selected", async () => {
      const page = await desktop.newPage();
      expect(await visit(page, `${origin}/`)).to.deep.equal([]);
      await page.screenshot({ path: demoShot("leaderboard"), fullPage: true });
      expect(await page.inputValue("#season")).to.equal(SEASON);
      const rows = await page.$$eval("#leaderboard tbody tr", (trs) =>
        trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.getAttribute("data-value") ?? "")),
      );
      const shown = new Map(rows.map((cells) => [cells[1]!, cells]));
      // The creator column shows the name npm start gives each creator (the address is its data-value).
      const creatorNames = new Map(
        await page.$$eval("#leaderboard tbody tr", (trs) =>
          trs.map((tr) => {
            const td = tr.querySelectorAll("td");
            return [td[1]?.getAttribute("data-value") ?? "", td[5]?.textContent?.trim() ?? ""] as const;
          }),
        ),
      );
      expect([...shown.keys()].sort()).to.deep.equal(agents.map((a) => a.id).sort());
      for (const agent of agents) {
        const cells = shown.get(agent.id)!;
        expect(cells[6], agent.id).to.equal(agent.style);
        expect(cells[5]!.toLowerCase(), agent.id).to.equal(agent.creatorKey.address.toLowerCase());
        expect(creatorNames.get(agent.id), agent.id).to.equal(agent.creatorName);
      }
      expect(shown.get(scored)![2], `${scored}'s score`).to.match(/^\d+(\.\d+)?$/);
      await page.close();
    });

    it("agent page: the API's seal and anchor status, and the verify command for this server", async () => {
      const page = await desktop.newPage();
      const shown = await agentPageBetweenEqualScores(page, origin, scored, SEASON);
      await page.screenshot({ path: demoShot("agent"), fullPage: true });
      expect(shown.problems).to.deep.equal([]);
      expect(shown.seal).to.equal(shown.score.seal);
      expect(shown.anchorStatus).to.equal(shown.score.anchor.status);
      const command = (await page.textContent("#verify-command")) ?? "";
      // Anchored, the command carries the chain flags with the registry the demo deployed.
      expect(command.toLowerCase()).to.equal(
        `npx augur verify --api ${origin} --agent ${scored} --season ${SEASON}`.toLowerCase() +
          (shown.anchorStatus === "anchored" ? ` --rpc rpc_url --registry ${registry.toLowerCase()}` : ""),
      );
      expect(await page.locator("svg#return-index title").textContent()).to.contain("Return index");
      await page.close();
    });

    it("agent page of a caller: its calls as CallLedger resolved them (asset, window, direction, outcome)", async () => {
      const caller = agents.find((a) => a.calls)!.id;
      const history = () =>
        apiJson<{ calls: unknown[] }>(origin, `/agents/${caller}/history?season_id=${SEASON}`);
      // A call is sealed as it happens: its reveal is a record (outcome "open") within the hour,
      // its outcome once the cycle's settler has settled it, 4 h (its window) on.
      await eventually(async () => (await history()).calls.length > 0, 30_000, `a call record of ${caller}`);
      const page = await desktop.newPage();
      expect(await visit(page, `${origin}/agents/${caller}?season=${SEASON}`)).to.deep.equal([]);
      await page.screenshot({ path: demoShot("agent-caller"), fullPage: true });
      const rows = await page.$$eval("#calls tbody tr", (trs) =>
        trs.map((tr) =>
          [...tr.querySelectorAll("td")].map((td) => td.getAttribute("title") ?? td.textContent),
        ),
      );
      expect(rows.length).to.be.greaterThan(0);
      // The asset cell shows the replica stock's ticker, its address in the tooltip.
      const tickers = await page.$$eval("#calls tbody td:nth-child(2)", (tds) =>
        tds.map((td) => td.textContent?.trim()),
      );
      for (const ticker of tickers) expect(ticker).to.match(/^[A-Z]{2,5}$/);
      for (const [revealed, asset, window, direction, confidence, outcome] of rows) {
        expect(revealed).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d/);
        expect(asset).to.match(/^0x[0-9a-f]{40}$/);
        expect(window).to.equal(`${CALL_WINDOW / 3600} h`);
        expect(direction).to.be.oneOf(["up", "down"]);
        expect(confidence).to.match(/^\d+ %$/);
        expect(outcome).to.be.oneOf(["hit", "miss", "void", "open"]);
      }
      await page.close();
    });

    it("calls: the callers' resolved calls include both a hit and a miss", async () => {
      const callers = agents.filter((a) => a.calls).map((a) => a.id);
      const outcomes = new Set<string>();
      // Callers never call the stock they trade, so their calls miss too (a call settles 4 h on).
      await eventually(
        async () => {
          for (const id of callers) {
            const { calls } = await apiJson<{ calls: Array<{ outcome: string | null }> }>(
              origin,
              `/agents/${id}/history?season_id=${SEASON}`,
            );
            for (const call of calls) if (call.outcome) outcomes.add(call.outcome);
          }
          return outcomes.has("hit") && outcomes.has("miss");
        },
        30_000,
        "a hit and a miss among the callers' call records",
      );
      expect([...outcomes]).to.include.members(["hit", "miss"]);
    });

    it("consensus: the callers' rounds, one latest-round row per market the API serves", async () => {
      // Every caller calls the same market each hour: the first rounds form in the first hours.
      await eventually(
        async () => (await apiJson<{ markets: unknown[] }>(origin, "/consensus")).markets.length > 0,
        30_000,
        "a consensus round",
      );
      const { markets } = await apiJson<{
        markets: Array<{ asset: string; window: number; events: number }>;
      }>(origin, "/consensus");
      // One market: the stock every caller calls, at the demo's call window.
      const caller = agents.find((a) => a.calls)!.id;
      const { calls } = await apiJson<{ calls: Array<{ asset: string }> }>(
        origin,
        `/agents/${caller}/history?season_id=${SEASON}`,
      );
      expect(markets.map((m) => [m.asset, m.window])).to.deep.equal([[calls[0]!.asset, CALL_WINDOW]]);
      expect(markets[0]!.events).to.be.greaterThan(0);
      const page = await desktop.newPage();
      expect(await visit(page, `${origin}/consensus`)).to.deep.equal([]);
      await page.screenshot({ path: demoShot("consensus"), fullPage: true });
      expect(await page.locator("#no-consensus").count()).to.equal(0);
      expect(await page.locator("#latest-rounds tbody tr").count()).to.equal(markets.length);
      // Voters is the sixth column: a round needs the ledger's quorum of 3 reveals.
      const voters = await page.$$eval("#latest-rounds tbody tr td:nth-child(6)", (tds) =>
        tds.map((td) => Number(td.textContent)),
      );
      for (const v of voters) expect(v).to.be.at.least(3);
      await page.close();
    });

    it("risk: a row for every demo agent's vault, and the coverage summary", async () => {
      const page = await desktop.newPage();
      expect(await visit(page, `${origin}/risk?season=${SEASON}`)).to.deep.equal([]);
      await page.screenshot({ path: demoShot("risk"), fullPage: true });
      const vaults = await page.$$eval("#risk tbody tr", (trs) =>
        trs.map((tr) => tr.getAttribute("data-vault")),
      );
      expect(vaults.sort()).to.deep.equal(agents.map((a) => a.id).sort());
      const { rows } = await apiJson<{ rows: { vault_id: string }[] }>(origin, `/seasons/${SEASON}/risk`);
      expect(rows.map((r) => r.vault_id).sort()).to.deep.equal(vaults);
      expect(await page.textContent("#coverage")).to.match(/Scored vaults hold/);
      await page.close();
    });

    for (const name of ["referee", "stewardship", "methodology"] as const) {
      it(`${name}: loads and renders with no console error or failed request`, async () => {
        const page = await desktop.newPage();
        const path = pages().find((p) => p.name === name)!.path;
        expect(await visit(page, origin + path)).to.deep.equal([]);
        // The methodology page is very long: its first screen is enough to look at.
        await page.screenshot({ path: demoShot(name), fullPage: name !== "methodology" });
        expect(await page.locator("main h1").count()).to.equal(1);
        await page.close();
      });
    }

    it("no page scrolls sideways on a 390 px wide phone", async () => {
      expect(await overflowingOnPhone(phone, origin, pages())).to.deep.equal([]);
    });
  });

  describe("stopping", () => {
    it("stops cleanly on SIGTERM (as on Ctrl-C): exit 0, server and store closed, node killed", async () => {
      expect(demo.exited(), `the demo stopped before the checks were done:\n${demo.out()}`).to.equal(false);
      // To npm, which relays it to the demo (Ctrl-C of the whole group: lifecycle.test.ts).
      demo.child.kill("SIGTERM");
      expect(await demo.exit, demo.out()).to.equal(0);
      expect(demo.out()).to.match(/^stopping…$/m);
      expect(demo.out()).to.match(/^stopped: server and store closed, node killed$/m);
      console.log(
        `      npm start smoke: up, checked and stopped in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
    });
  });
});
