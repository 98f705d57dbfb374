import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import type { Browser, Page } from "playwright-core";
import type { Store } from "../store/open";
import { launchChromium, SCREENSHOT_DIR, visit } from "../../test-support/site/browser";
import {
  SITE_AGENTS,
  SITE_SEASON,
  seededSiteStore,
  startSiteServer,
  type SiteServer,
} from "../../test-support/site/testing";
import { NAV_ITEMS } from "./layout";

const PAGES = [
  `/?season=${SITE_SEASON}`,
  `/agents/ada?season=${SITE_SEASON}`,
  `/agents/${SITE_AGENTS.tooFewSnapshots}?season=${SITE_SEASON}`,
  "/consensus",
  `/referee?season=${SITE_SEASON}`,
  `/risk?season=${SITE_SEASON}`,
  "/stewardship",
  "/methodology",
  "/mode",
  "/receipt",
];

/** An element's background image, computed in the page (the engine compiles without DOM types). */
const BACKGROUND = (e: unknown): string =>
  (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundImage: string } }).getComputedStyle(e)
    .backgroundImage;

/** Every `.table-wrap` whose table is wider than its box (a hidden column), as "index: scroll > client". */
const overflowingTables = (page: Page) =>
  page.$$eval(".table-wrap", (wraps) =>
    wraps
      .map((w, i) => ({ i, scroll: w.scrollWidth, client: w.clientWidth }))
      .filter((w) => w.scroll > w.client)
      .map((w) => `table ${w.i}: ${w.scroll} > ${w.client}`),
  );

/** The site explains itself: names not hex, legends, links to the methodology, charts with axes. */
describe("site explains itself (headless Chromium, 1280 px and 390 px)", function () {
  this.timeout(120_000);
  let store: Store;
  let server: SiteServer;
  let browser: Browser;

  before(async () => {
    browser = await launchChromium();
    store = await seededSiteStore();
    server = await startSiteServer(store);
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await store?.close();
  });

  async function open(path: string, width = 1280): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    expect(await visit(page, server.url + path), path).to.deep.equal([]);
    return page;
  }
  const done = (page: Page) => page.context().close();

  it("no table hides a column at 1280 px: no table container scrolls sideways, on any page", async () => {
    for (const path of PAGES) {
      const page = await open(path);
      expect(await overflowingTables(page), path).to.deep.equal([]);
      await done(page);
    }
  });

  it("leaderboard at 1280 px: the Style column and every term's value are on screen", async () => {
    const page = await open(`/?season=${SITE_SEASON}`);
    const style = await page.locator("#leaderboard thead th", { hasText: "Style" }).boundingBox();
    expect(style, "Style header").to.not.equal(null);
    expect(style!.x + style!.width).to.be.at.most(1280);
    // Values beside the small bars, and "not measured" written out, not an empty bar like 0.
    const values = await page.locator("#leaderboard .meter-value").allTextContents();
    expect(values.length).to.be.greaterThan(0);
    for (const v of values) expect(v).to.match(/^\d+$/);
    const none = page.locator('#leaderboard .bar.none[data-measured="false"]').first();
    expect(await none.textContent()).to.equal("n/m");
    expect(await none.getAttribute("aria-label")).to.match(/: not measured$/);
    const measuredStyle = await page
      .locator('#leaderboard .bar[data-measured="true"]')
      .first()
      .evaluate(BACKGROUND);
    const noneStyle = await none.evaluate(BACKGROUND);
    expect(noneStyle).to.not.equal(measuredStyle);
    await page.screenshot({ path: join(SCREENSHOT_DIR, "explains-leaderboard.png"), fullPage: true });
    await done(page);
  });

  it("leaderboard: a one-line legend of the score, every term linked to its methodology entry", async () => {
    const page = await open(`/?season=${SITE_SEASON}`);
    const legend = page.locator("#score-legend");
    expect(await legend.textContent()).to.match(/0–100, higher is better/);
    const links = await page
      .locator("a.term")
      .evaluateAll((as) =>
        as.map((a) => ({ href: a.getAttribute("href") ?? "", title: a.getAttribute("title") ?? "" })),
      );
    expect(links.length).to.be.at.least(8);
    const methodology = await open("/methodology");
    for (const link of links) {
      expect(link.href).to.match(/^\/methodology#term-[a-z-]+$/);
      expect(link.title.length, link.href).to.be.greaterThan(10);
      const id = link.href.split("#")[1]!;
      expect(await methodology.locator(`[id="${id}"]`).count(), id).to.equal(1);
    }
    await done(methodology);
    await done(page);
  });

  it("methodology: a readable summary first, the full specifications folded below it", async () => {
    const page = await open("/methodology");
    const summaries = page.locator("section.summary");
    expect(await summaries.count()).to.equal(6);
    expect(await page.locator("details.spec").count()).to.equal(6);
    expect(await page.locator("details.spec[open]").count()).to.equal(0);
    const height = await page.evaluate<number>("document.documentElement.scrollHeight");
    expect(height, "page height with the specs folded").to.be.below(8000);
    // A deep link into a folded spec opens it.
    await page.goto(`${server.url}/methodology#risk-spec`);
    await page.locator("#risk-spec > summary").click();
    expect(await page.locator("#risk-spec[open]").count()).to.equal(1);
    await done(page);
  });

  it("risk: the score is called a risk score, higher = riskier, and all six components are on screen", async () => {
    const page = await open(`/risk?season=${SITE_SEASON}`);
    const headers = await page.locator("#risk thead th").allTextContents();
    expect(headers.map((h) => h.replace(/\s+/g, " ").trim())).to.include("Risk score (higher = riskier)");
    expect(headers).to.have.length(9);
    for (const th of await page.locator("#risk thead th").all()) {
      const box = (await th.boundingBox())!;
      expect(box.x + box.width, (await th.textContent()) ?? "").to.be.at.most(1280);
    }
    await done(page);
  });

  it("consensus: tickers and time windows, not hex addresses and bucket numbers", async () => {
    const page = await open("/consensus");
    const cells = await page
      .locator("#latest-rounds tbody tr")
      .evaluateAll((rows) =>
        rows.map((r) => [...r.querySelectorAll("td")].slice(0, 3).map((c) => c.textContent?.trim() ?? "")),
      );
    expect(cells.length).to.be.greaterThan(0);
    for (const [asset, window, round] of cells) {
      expect(asset).to.match(/^(TSLA|AAPL)$/);
      expect(window).to.match(/^\d+ h$/);
      expect(round).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d–\d\d:\d\d UTC$/);
    }
    const text = await page.locator("main").textContent();
    expect(text).to.not.match(/Bucket/);
    await done(page);
  });

  it("agent page: tickers in the calls, a calibration chart, terms and DNA explained", async () => {
    const page = await open(`/agents/ada?season=${SITE_SEASON}`);
    const assets = await page.locator("#calls tbody td:nth-child(2)").allTextContents();
    expect(assets.filter((a) => a.trim() !== "—").every((a) => /^(TSLA|AAPL)$/.test(a.trim()))).to.equal(
      true,
    );
    expect(await page.locator("#calibration svg").count()).to.equal(1);
    expect(await page.locator("#calibration-table tbody tr").count()).to.be.greaterThan(0);
    expect(await page.locator("#terms-legend").textContent()).to.match(/weight used/i);
    expect(await page.locator("dl.facts a.term").count()).to.be.at.least(3); // DNA keys, match, multiplier
    await done(page);
  });

  it("charts have axis ticks and gridlines, readable at 390 px", async () => {
    const page = await open(`/agents/ada?season=${SITE_SEASON}`, 390);
    for (const id of ["return-index", "calibration-chart"]) {
      const svg = page.locator(`svg#${id}`);
      expect(await svg.locator(".chart-axis text").count(), id).to.be.at.least(4);
      expect(await svg.locator("line.grid").count(), id).to.be.at.least(3);
      const heights = await svg
        .locator(".chart-axis text")
        .evaluateAll((ts) => ts.map((t) => t.getBoundingClientRect().height));
      for (const h of heights) expect(h, `${id} label height`).to.be.at.least(9);
    }
    await page.screenshot({ path: join(SCREENSHOT_DIR, "explains-agent-390.png"), fullPage: true });
    await done(page);
  });

  it("/mode and /receipt are in the navigation", async () => {
    expect(NAV_ITEMS.map((n) => n.href)).to.include.members(["/mode", "/receipt"]);
    const page = await open("/mode");
    const nav = await page.locator("nav.site a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
    expect(nav).to.include.members(["/mode", "/receipt"]);
    expect(await page.locator('nav.site a[aria-current="page"]').textContent()).to.equal("Mode");
    await done(page);
  });

  it("referee: Σr and the percentile explained beside the table", async () => {
    const page = await open(`/referee?season=${SITE_SEASON}`);
    const sumR = page.locator('thead a.term[href="/methodology#term-sum-r"]').first();
    expect(await sumR.textContent()).to.equal("Σr");
    expect(await page.locator("#referee-legend").textContent()).to.contain("50 is what a coin gets");
    await done(page);
  });
});
