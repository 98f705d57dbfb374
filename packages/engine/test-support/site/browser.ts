import { existsSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";

/** Debian's chromium; CHROMIUM_PATH overrides it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export class ChromiumMissingError extends Error {
  override readonly name = "ChromiumMissingError";
  constructor(path: string) {
    super(
      `no Chromium at ${path}: the site's browser tests need it. Install Debian's package ` +
        `(apt-get install -y chromium) or set CHROMIUM_PATH to a Chromium binary.`,
    );
  }
}

/** Headless Chromium for the site's tests and bench; fails loudly when it is not installed. */
export async function launchChromium(path = CHROMIUM_PATH): Promise<Browser> {
  if (!existsSync(path)) throw new ChromiumMissingError(path);
  return chromium.launch({
    executablePath: path,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

/** Where the site's browser tests write screenshots: `test-results/site/` at the repo root (git-ignored). */
export const SCREENSHOT_DIR = join(__dirname, "..", "..", "..", "..", "test-results", "site");

/**
 * Loads `url` in `page` and returns every console error, page error, failed request and 4xx/5xx
 * response seen while it loaded, and a non-200 status of the page itself: empty means clean.
 */
export async function visit(page: Page, url: string): Promise<string[]> {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("requestfailed", (r) => problems.push(`failed: ${r.url()} ${r.failure()?.errorText ?? ""}`));
  page.on("response", (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  const response = await page.goto(url, { waitUntil: "load" });
  if (!response || response.status() !== 200) problems.push(`status ${response?.status()} for ${url}`);
  return problems;
}

/** "scrollWidth > clientWidth" when the page scrolls sideways, else undefined. */
export async function sidewaysScroll(page: Page): Promise<string | undefined> {
  // A string runs in the page (the engine is compiled without DOM types).
  const [scroll, client] = await page.evaluate<[number, number]>(
    "[document.documentElement.scrollWidth, document.documentElement.clientWidth]",
  );
  return scroll > client ? `${scroll} > ${client}` : undefined;
}
