import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { eraseField } from "../erasure/erase";
import { postText } from "../erasure/texts";
import { ingestRecord } from "../records/ingest";
import type { Store } from "../store/open";
import { decisionV3, sign, TEST_CHAIN_ID, testWallet } from "../../test-support/records/testing";
import { launchChromium, SCREENSHOT_DIR, sidewaysScroll, visit } from "../../test-support/site/browser";
import {
  SITE_AGENTS,
  SITE_NOW,
  SITE_SEASON,
  seededSiteStore,
  startSiteServer,
  type SiteServer,
} from "../../test-support/site/testing";

const SHOTS = SCREENSHOT_DIR;

const PAGES = [
  { name: "leaderboard", path: `/?season=${SITE_SEASON}` },
  { name: "agent-ranked", path: `/agents/ada?season=${SITE_SEASON}` },
  { name: "agent-unranked", path: `/agents/${SITE_AGENTS.tooFewSnapshots}?season=${SITE_SEASON}` },
  { name: "consensus", path: "/consensus" },
  { name: "referee", path: `/referee?season=${SITE_SEASON}` },
  { name: "risk", path: `/risk?season=${SITE_SEASON}` },
  { name: "risk-exit", path: `/risk/exit?season=${SITE_SEASON}` },
  { name: "risk-shared-exposure", path: `/risk/shared_exposure?season=${SITE_SEASON}` },
  { name: "evidence", path: `/agents/ada/evidence?season=${SITE_SEASON}` },
  { name: "stewardship", path: "/stewardship" },
  { name: "methodology", path: "/methodology" },
] as const;

const columnTexts = (page: Page, column: number) =>
  page.$$eval(`#leaderboard tbody tr td:nth-child(${column})`, (cells) =>
    cells.map((c) => c.getAttribute("data-value") ?? ""),
  );

describe("site in headless Chromium", function () {
  this.timeout(60_000);
  let store: Store;
  let server: SiteServer;
  let browser: Browser;
  let context: BrowserContext;

  before(async () => {
    // Launch first: without Chromium the suite fails here with the install instructions.
    browser = await launchChromium();
    store = await seededSiteStore();
    server = await startSiteServer(store);
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    mkdirSync(SHOTS, { recursive: true });
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await server?.close();
    await store?.close();
  });

  for (const p of PAGES) {
    it(`${p.name}: loads with no console error and no failed request (screenshot)`, async () => {
      const page = await context.newPage();
      const problems = await visit(page, server.url + p.path);
      // The methodology page is very long: its first screen is enough to look at.
      await page.screenshot({ path: join(SHOTS, `${p.name}.png`), fullPage: p.name !== "methodology" });
      expect(problems).to.deep.equal([]);
      expect(await page.locator("main h1").count()).to.equal(1);
      await page.close();
    });
  }

  it("leaderboard: an unranked agent shows a bar with its reason instead of a number", async () => {
    const page = await context.newPage();
    await page.goto(`${server.url}/?season=${SITE_SEASON}`);
    const row = page.locator("#leaderboard tbody tr", { hasText: SITE_AGENTS.tooFewSnapshots });
    const bar = row.locator(".bar.reason");
    expect(await bar.getAttribute("data-reason")).to.equal("too_few_snapshots");
    expect(await bar.textContent()).to.contain("fewer than 3 snapshots");
    const eve = page.locator("#leaderboard tbody tr", { hasText: SITE_AGENTS.tooFewDecisions });
    expect(await eve.locator(".bar.reason").textContent()).to.contain("fewer than 5 own decisions");
    const ranked = page.locator("#leaderboard tbody tr", { hasText: "ada" }).first();
    expect(await ranked.locator("td").nth(2).locator("strong").textContent()).to.match(/^\d+\.\d$/);
    await page.close();
  });

  it("leaderboard: header sorting works in the page (aria-sort follows) and by keyboard", async () => {
    const page = await context.newPage();
    await page.goto(`${server.url}/?season=${SITE_SEASON}`);
    expect(await page.getAttribute("#leaderboard", "data-enhanced")).to.equal("true");
    const agentHeader = page.locator('#leaderboard th[data-key="agent"]');
    await agentHeader.locator(".sort").click();
    expect(await agentHeader.getAttribute("aria-sort")).to.equal("ascending");
    const asc = await columnTexts(page, 2);
    expect(asc).to.deep.equal([...asc].sort());
    await agentHeader.locator(".sort").focus();
    await page.keyboard.press("Enter");
    expect(await agentHeader.getAttribute("aria-sort")).to.equal("descending");
    expect(await columnTexts(page, 2)).to.deep.equal([...asc].reverse());
    expect(await page.getAttribute('#leaderboard th[data-key="rank"]', "aria-sort")).to.equal("none");
    // Score: highest first, unranked (empty) last.
    await page.locator('#leaderboard th[data-key="score"] .sort').click();
    const scores = await columnTexts(page, 3);
    const numbers = scores.filter((s) => s !== "").map(Number);
    expect(numbers).to.deep.equal([...numbers].sort((a, b) => b - a));
    expect(scores.slice(numbers.length).every((s) => s === "")).to.equal(true);
    await page.close();
  });

  it("leaderboard: without JavaScript the header links sort on the server", async () => {
    const noJs = await browser.newContext({ javaScriptEnabled: false });
    const page = await noJs.newPage();
    await page.goto(`${server.url}/?season=${SITE_SEASON}`);
    await page.locator('#leaderboard th[data-key="agent"] a').click();
    await page.waitForURL(/sort=agent/);
    const first = await columnTexts(page, 2);
    expect(first).to.deep.equal([...first].sort());
    await page.locator('#leaderboard th[data-key="agent"] a').click();
    await page.waitForURL(/order=desc/);
    expect(await columnTexts(page, 2)).to.deep.equal([...first].reverse());
    expect(await page.getAttribute('#leaderboard th[data-key="agent"]', "aria-sort")).to.equal("descending");
    await noJs.close();
  });

  it("agent page: the seal shown is the API's seal, which is sha256 of the manifest it serves", async () => {
    const api = await fetch(`${server.url}/api/v1/agents/ada/score?season_id=${SITE_SEASON}`);
    const text = await api.text();
    const body = JSON.parse(text) as {
      seal: string;
      anchor: { status: string; treeSize: number; registry: string };
    };
    const manifestText = text.slice(text.indexOf('"manifest":') + 11, text.indexOf(',"anchor":'));
    expect(`0x${createHash("sha256").update(manifestText).digest("hex")}`).to.equal(body.seal);
    const page = await context.newPage();
    await page.goto(`${server.url}/agents/ada?season=${SITE_SEASON}`);
    expect((await page.textContent("#seal"))?.trim()).to.equal(body.seal);
    expect(body.anchor.status).to.equal("anchored");
    expect(await page.textContent("#anchor-status")).to.equal("anchored");
    expect(await page.textContent("#verify-command")).to.equal(
      `npx augur verify --api ${server.url} --agent ada --season ${SITE_SEASON} --rpc RPC_URL --registry ${body.anchor.registry}`,
    );
    expect(await page.locator("svg#return-index title").textContent()).to.contain("Return index");
    expect(await page.locator("details pre #manifest").count()).to.equal(1);
    await page.close();
  });

  it("risk page: no score below 50 % measurable, the share shown beside it", async () => {
    const api = (await (await fetch(`${server.url}/api/v1/seasons/${SITE_SEASON}/risk`)).json()) as {
      rows: { vault_id: string; score: number | null; measurable_share: number }[];
    };
    const hidden = api.rows.find((r) => r.vault_id === SITE_AGENTS.riskUnmeasurable)!;
    expect(hidden.measurable_share).to.be.below(0.5);
    expect(hidden.score).to.equal(null);
    const page = await context.newPage();
    await page.goto(`${server.url}/risk?season=${SITE_SEASON}`);
    const row = page.locator(`#risk tr[data-vault="${SITE_AGENTS.riskUnmeasurable}"]`);
    expect(await row.locator("td.score").getAttribute("data-value")).to.equal("");
    expect(await row.locator("td.score .bar.reason").textContent()).to.contain("under 50 % measurable");
    expect((await row.locator("td.measurable").textContent())?.trim()).to.equal(
      `${(hidden.measurable_share * 100).toFixed(1)} %`,
    );
    const scored = page.locator('#risk tr[data-vault="ada"] td.score');
    expect((await scored.textContent())?.trim()).to.match(/^\d+\.\d$/);
    // Any column sorts: worst fall, worst first, unknown last.
    const header = page.locator('#risk th[data-key="worst_fall"]');
    await header.locator(".sort").click();
    expect(await header.getAttribute("aria-sort")).to.equal("descending");
    const values = await page.$$eval("#risk tbody tr td:nth-child(4)", (c) =>
      c.map((x) => x.getAttribute("data-value") ?? ""),
    );
    const known = values.filter((v) => v !== "").map(Number);
    expect(known).to.deep.equal([...known].sort((a, b) => b - a));
    expect(values.slice(known.length).every((v) => v === "")).to.equal(true);
    await page.close();
    // Without the script the header links sort on the server: most measured first.
    const served = await (await fetch(`${server.url}/risk?season=${SITE_SEASON}&sort=measurable`)).text();
    const order = [...served.matchAll(/data-vault="([^"]+)"/g)].map((m) => m[1]);
    expect(order).to.have.length(api.rows.length);
    expect(order[order.length - 1]).to.equal(SITE_AGENTS.riskUnmeasurable);
  });

  it('"Six components, each already published on its own page here": every component link of the risk page opens a clean page whose reading per vault is the one in the risk table', async () => {
    const page = await context.newPage();
    await page.goto(`${server.url}/risk?season=${SITE_SEASON}`);
    const links = await page.$$eval("#components a", (as) => as.map((a) => a.getAttribute("href") ?? ""));
    expect(links).to.have.length(6);
    // The risk table's cells, per vault, in component order (columns 4–9).
    const table = await page.$$eval("#risk tbody tr", (trs) =>
      trs.map((tr) => ({
        vault: tr.getAttribute("data-vault") ?? "",
        cells: [...tr.querySelectorAll("td")].slice(3).map((td) => (td.textContent ?? "").trim()),
      })),
    );
    const component = await context.newPage();
    for (const [i, href] of links.entries()) {
      expect(await visit(component, server.url + href), href).to.deep.equal([]);
      const readings = await component.$$eval("#readings tbody tr", (trs) =>
        trs.map((tr) => ({
          vault: tr.getAttribute("data-vault") ?? "",
          reading: (tr.querySelector("td.reading")?.textContent ?? "").trim(),
          inputs: tr.querySelectorAll("td.inputs code").length,
        })),
      );
      expect(readings.map((r) => r.vault).sort(), href).to.deep.equal(table.map((r) => r.vault).sort());
      for (const r of readings) {
        const cell = table.find((t) => t.vault === r.vault)!.cells[i]!;
        // "unknown" on both, with the reason on the component's page; else the same 3 decimals.
        expect(r.reading.startsWith(cell), `${href} ${r.vault}: ${r.reading} vs ${cell}`).to.equal(true);
        expect(r.inputs, `${href} ${r.vault} lists its inputs`).to.be.above(0);
      }
    }
    await component.close();
    await page.close();
  });

  it("referee page: every agent of the pinned route, with its percentile and its monkeys", async () => {
    const board = (await (await fetch(`${server.url}/api/v1/referee/${SITE_SEASON}`)).json()) as {
      input_seal: string;
      agents: { agent: string; percentile: number; status: string }[];
    };
    expect(board.agents.map((a) => a.agent)).to.include("ada");
    const served = await (await fetch(`${server.url}/referee?season=${SITE_SEASON}`)).text();
    expect(served).to.contain(board.input_seal);
    // The page shows which sealed board it reads, and whether that board is anchored yet.
    const sealed = (await (await fetch(`${server.url}/api/v1/referee/${SITE_SEASON}/board`)).json()) as {
      seal: string;
      anchor: { status: string };
    };
    expect(sealed.anchor.status).to.equal("anchored");
    expect(served).to.match(new RegExp(`Board seal\\s*<code>${sealed.seal}</code>`));
    expect(served).to.contain('<span class="status-anchored">anchored</span>');
    // A season the cycle has not sealed a board for (s0 closed before any) says so, not an error.
    const none = await fetch(`${server.url}/referee?season=s0`);
    expect(none.status).to.equal(200);
    expect(await none.text()).to.contain("Season s0 has no referee board yet");
    for (const a of board.agents) {
      expect(served).to.contain(`<section id="monkeys-${a.agent}">`);
      expect(served).to.match(
        new RegExp(`#monkeys-${a.agent}">${a.agent}</a></td>\\s*<td class="num">${a.percentile.toFixed(2)}<`),
      );
    }
  });

  for (const p of PAGES.filter((x) => ["leaderboard", "agent-ranked", "risk"].includes(x.name))) {
    it(`${p.name}: the keyboard reaches the skip link first, then every control in page order, with a visible focus`, async () => {
      const page = await context.newPage();
      await page.goto(server.url + p.path);
      // Number every control a keyboard user must reach (those inside a closed <details> are
      // not reachable until it opens, by design).
      const count = await page.evaluate<number>(`(() => {
        const all = [...document.querySelectorAll('a[href], button, select, input, summary, [tabindex]:not([tabindex="-1"])')]
          .filter((e) => !e.closest("details:not([open])") || e.tagName === "SUMMARY");
        all.forEach((e, i) => e.setAttribute("data-kbd", String(i)));
        return all.length;
      })()`);
      expect(count).to.be.greaterThan(8);
      const reached: string[] = [];
      const outlines: string[] = [];
      for (let i = 0; i < count + 10; i++) {
        await page.keyboard.press("Tab");
        const [kbd, outline] = await page.evaluate<[string | null, string]>(
          "[document.activeElement.getAttribute('data-kbd'), getComputedStyle(document.activeElement).outlineStyle]",
        );
        if (kbd === null) continue; // a scrolling table the browser lets the keyboard scroll
        if (reached.includes(kbd)) break; // wrapped around
        reached.push(kbd);
        outlines.push(outline);
      }
      expect(reached).to.deep.equal(Array.from({ length: count }, (_, i) => String(i)));
      expect(await page.getAttribute('[data-kbd="0"]', "class")).to.equal("skip");
      expect(outlines.every((o) => o !== "none")).to.equal(true);
      // The skip link takes the focus to the main content.
      await page.focus('[data-kbd="0"]');
      await page.keyboard.press("Enter");
      expect(await page.evaluate<string>("document.activeElement.id")).to.equal("main");
      await page.close();
    });
  }

  it("every page fits a 390 px wide phone: no horizontal page scroll", async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    const overflowing: string[] = [];
    for (const p of PAGES) {
      const page = await phone.newPage();
      await page.goto(server.url + p.path);
      const overflow = await sidewaysScroll(page);
      if (overflow) overflowing.push(`${p.name}: ${overflow}`);
      if (p.name === "leaderboard" || p.name === "risk") {
        await page.screenshot({ path: join(SHOTS, `${p.name}-390.png`), fullPage: true });
      }
      await page.close();
    }
    await phone.close();
    expect(overflowing).to.deep.equal([]);
  });

  it("an unknown path outside /api gets a 404 page in the site layout; under /api a JSON 404", async () => {
    for (const path of ["/nope", "/agents/ada/y/z", "/apis"]) {
      const res = await fetch(server.url + path);
      const text = await res.text();
      expect(res.status, path).to.equal(404);
      expect(res.headers.get("content-type"), path).to.match(/^text\/html/);
      expect(res.headers.get("content-security-policy"), path).to.match(/^default-src 'none'/);
      expect(text, path).to.contain(`there is no page at ${path}`);
      expect(text, path).to.match(/<h1>Not found<\/h1>/);
      expect(text, path).to.match(/<nav class="site" aria-label="Main">/); // the same nav as every page
    }
    const page = await context.newPage();
    const response = await page.goto(`${server.url}/nope?x=<b>`);
    expect(response?.status()).to.equal(404);
    expect(await page.textContent("#error-message")).to.equal("there is no page at /nope");
    expect(await page.locator("nav.site a").count()).to.be.greaterThan(5);
    await page.close();
    const api: [string, string][] = [
      ["GET", "/api/v1/nope"],
      ["GET", "/api"],
      ["GET", "/api/v1/agents/ada/y/z"],
      ["POST", "/nope"],
    ];
    for (const [method, path] of api) {
      const res = await fetch(server.url + path, { method });
      expect(res.status, path).to.equal(404);
      expect(res.headers.get("content-type"), path).to.match(/^application\/json/);
      expect(await res.json(), path).to.deep.equal({
        error: { code: "NOT_FOUND", message: `no route ${method} ${path}` },
      });
    }
  });

  it("bad input gets a 4xx page with a clear message, never a 5xx", async () => {
    const cases: [string, number, RegExp][] = [
      ["/agents/nobody?season=s1", 404, /agent nobody is not registered in season s1/],
      ["/agents/ada?season=NOPE", 400, /season must be a lowercase id/],
      ["/?season=zz", 404, /season zz does not exist/],
      ["/?season=s1&page=0", 400, /page must be a whole number/],
      ["/?season=s1&page=7", 404, /page 7 does not exist/],
      ["/?season=s1&sort=bogus", 400, /sort must be one of/],
      ["/risk?season=s1&sort=bogus", 400, /sort must be one of/],
      ["/referee?season=zz", 404, /season zz does not exist/],
    ];
    for (const [path, status, message] of cases) {
      const res = await fetch(server.url + path);
      const text = await res.text();
      expect(res.status, path).to.equal(status);
      expect(res.headers.get("content-type"), path).to.match(/^text\/html/);
      expect(text, path).to.match(message);
    }
  });

  it('record page: a decision\'s note beside its sealed record, then "erased on request" (screenshot)', async () => {
    // A DecisionV3 of ada whose note stays out of the seal; last in this file: it adds one leaf.
    const key = testWallet("site agent ada");
    const { message, text: note } = decisionV3("ada", SITE_NOW - 60, "Ada's sister said sell");
    const ctx = { chainId: TEST_CHAIN_ID, now: () => SITE_NOW, recordGrace: Infinity };
    const { seal } = await ingestRecord(store, await sign("DecisionV3", message, key), ctx);
    await postText(store, seal, { field: "note", text: note.text, salt: note.salt }, SITE_NOW);
    const page = await context.newPage();
    expect(await visit(page, `${server.url}/records/${seal}`)).to.deep.equal([]);
    expect(await page.locator('#record-texts tr[data-status="published"] q').textContent()).to.equal(
      note.text,
    );
    await eraseField(store, { seal, field: "note", now: SITE_NOW });
    expect(await visit(page, `${server.url}/records/${seal}`)).to.deep.equal([]);
    expect(await page.locator('#record-texts tr[data-status="erased"]').textContent()).to.contain(
      "erased on request",
    );
    expect(await page.locator("#record-seal").textContent()).to.equal(seal);
    await page.screenshot({ path: join(SHOTS, "record-erased.png"), fullPage: true });
    await page.close();
  });
});
