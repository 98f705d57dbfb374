import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

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
