import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { SCREENSHOT_DIR, sidewaysScroll, visit } from "@augur/engine/test-support/site/browser";

/** The demo's pages, as a visitor opens them (the leaderboard without a season: the newest). */
export function demoPages(seasonId: string, agent: string) {
  return [
    { name: "leaderboard", path: "/" },
    { name: "agent", path: `/agents/${agent}?season=${seasonId}` },
    { name: "consensus", path: "/consensus" },
    { name: "referee", path: `/referee?season=${seasonId}` },
    { name: "risk", path: `/risk?season=${seasonId}` },
    { name: "stewardship", path: "/stewardship" },
    { name: "methodology", path: "/methodology" },
  ] as const;
}

/** Demo screenshots sit beside the seeded site's, prefixed so neither overwrites the other. */
export const demoShot = (name: string) => join(SCREENSHOT_DIR, `demo-${name}.png`);

interface ScoreAnswer {
  readonly seal: string;
  readonly anchor: { readonly status: string };
}

/** GET a JSON view of the running demo's API. */
export async function apiJson<T>(origin: string, path: string): Promise<T> {
  const res = await fetch(`${origin}/api/v1${path}`);
  expect(res.status, path).to.equal(200);
  return (await res.json()) as T;
}

/**
 * Opens an agent's page while the demo keeps scoring: the API's score is read just before and
 * just after the page, and only a page framed by two equal answers is compared with them (a new
 * hour may be scored in between; then it tries again).
 */
export async function agentPageBetweenEqualScores(
  page: Page,
  origin: string,
  agent: string,
  seasonId: string,
): Promise<{ score: ScoreAnswer; seal: string; anchorStatus: string; problems: string[] }> {
  const read = () => apiJson<ScoreAnswer>(origin, `/agents/${agent}/score?season_id=${seasonId}`);
  for (let attempt = 0; attempt < 8; attempt += 1) {
    const before = await read();
    const problems = await visit(page, `${origin}/agents/${agent}?season=${seasonId}`);
    const seal = ((await page.textContent("#seal")) ?? "").trim();
    const anchorStatus = (await page.textContent("#anchor-status")) ?? "";
    const after = await read();
    if (before.seal === after.seal && before.anchor.status === after.anchor.status) {
      return { score: after, seal, anchorStatus, problems };
    }
  }
  throw new Error(`${agent}'s score changed during each of 8 page loads`);
}

/** Headless Chromium contexts for the demo's pages: a desktop and a 390 px phone. */
export async function demoContexts(
  browser: Browser,
): Promise<{ desktop: BrowserContext; phone: BrowserContext }> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return {
    desktop: await browser.newContext({ viewport: { width: 1280, height: 900 } }),
    phone: await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true }),
  };
}

/** Every page that scrolls sideways at the phone's width, as "name: scrollWidth > clientWidth". */
export async function overflowingOnPhone(
  phone: BrowserContext,
  origin: string,
  pages: readonly { name: string; path: string }[],
): Promise<string[]> {
  const overflowing: string[] = [];
  for (const p of pages) {
    const page = await phone.newPage();
    await page.goto(origin + p.path);
    const overflow = await sidewaysScroll(page);
    if (overflow) overflowing.push(`${p.name}: ${overflow}`);
    await page.close();
  }
  return overflowing;
}
