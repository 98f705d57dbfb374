import { expect } from "chai";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { Store } from "../store/open";
import { insertSeason } from "../store/queries/seasons";
import { launchChromium } from "../../test-support/site/browser";
import { seedManyAgents } from "../../test-support/site/many-agents";
import { startSiteServer, type SiteServer } from "../../test-support/site/testing";

/** 100 a page (the leaderboard's page size): three pages, the last one short. */
const AGENTS = 230;

const cells = (page: Page, column: number) =>
  page.$$eval(`#leaderboard tbody tr td:nth-child(${column})`, (tds) =>
    tds.map((td) => td.getAttribute("data-value") ?? ""),
  );

describe("site leaderboard: pages and the season selector (headless Chromium, no JavaScript)", function () {
  this.timeout(60_000);
  let store: Store;
  let server: SiteServer;
  let browser: Browser;
  let context: BrowserContext;

  before(async () => {
    browser = await launchChromium();
    store = await seedManyAgents(AGENTS);
    // An older, empty season: the selector lists it, the leaderboard opens on the newest.
    await insertSeason(store.db, {
      id: "s0",
      name: "Pilot",
      starts_at: 1_700_000_000,
      ends_at: 1_700_000_000 + 28 * 86_400,
      closed_at: 1_700_000_000 + 28 * 86_400,
      created_at: 1_700_000_000,
    });
    server = await startSiteServer(store);
    // Without JavaScript: every control here must work as plain links and forms.
    context = await browser.newContext({ javaScriptEnabled: false });
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await server?.close();
    await store?.close();
  });

  it("pages through 230 agents by rank: 100, 100, 30 rows, ranks in order, Next and Previous links", async () => {
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    const seen: string[] = [];
    const ranks: number[] = [];
    for (const [n, rows] of [
      [1, 100],
      [2, 100],
      [3, 30],
    ] as const) {
      expect(await page.textContent(".pager span")).to.contain(`Page ${n} of 3 · ${AGENTS} agents`);
      const agents = await cells(page, 2);
      expect(agents, `page ${n}`).to.have.length(rows);
      seen.push(...agents);
      ranks.push(...(await cells(page, 1)).filter((r) => r !== "").map(Number));
      expect(await page.locator('a[rel="prev"]').count()).to.equal(n === 1 ? 0 : 2); // above and below
      if (n < 3) {
        await page.locator('a[rel="next"]').first().click();
        await page.waitForURL(new RegExp(`page=${n + 1}`));
      }
    }
    expect(await page.locator('a[rel="next"]').count()).to.equal(0);
    expect(new Set(seen).size).to.equal(AGENTS); // every agent once, none twice
    expect(ranks).to.deep.equal([...ranks].sort((a, b) => a - b));
    expect(ranks).to.have.length(AGENTS - AGENTS / 10); // every tenth is unranked, listed last
    await page.locator('a[rel="prev"]').first().click();
    await page.waitForURL(/page=2/);
    expect(await cells(page, 2)).to.deep.equal(seen.slice(100, 200));
    await page.close();
  });

  it("keeps the sort across pages: by agent, page 2 continues where page 1 stopped", async () => {
    const page = await context.newPage();
    await page.goto(`${server.url}/?sort=agent&order=desc`);
    const first = await cells(page, 2);
    await page.locator('a[rel="next"]').first().click();
    await page.waitForURL(/page=2/);
    expect(page.url())
      .to.match(/sort=agent/)
      .and.match(/order=desc/);
    const second = await cells(page, 2);
    const both = [...first, ...second];
    expect(both).to.deep.equal([...both].sort().reverse());
    await page.close();
  });

  it("the season selector lists every season, the shown one selected, and switches season", async () => {
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    const options = await page.$$eval("#season option", (os) =>
      os.map((o) => [o.getAttribute("value"), o.hasAttribute("selected")]),
    );
    expect(options).to.deep.equal([
      ["s1", true],
      ["s0", false],
    ]);
    await page.selectOption("#season", "s0");
    await page.locator("form button[type=submit]").click();
    await page.waitForURL(/season=s0/);
    expect(await page.textContent("main")).to.contain("No agent of season s0 has been scored yet.");
    expect(await page.inputValue("#season")).to.equal("s0");
    await page.close();
  });
});
