/**
 * `@augur/engine/test-support` — the engine's test helpers that tests outside the engine (the
 * contract and replica suites, the demo) use. Never imported by production code.
 */
export { registration, sign, snapshot, testWallet } from "./records/testing";
export { fakeIo } from "./cli/testing";
export { FakeKeeper } from "./cycle/testing";
export { declareWindDown, referenceHistory, scriptedDays, sitePages } from "./modes/testing";
export { launchChromium, SCREENSHOT_DIR, sidewaysScroll, visit } from "./site/browser";
export { seasonStore } from "./store/seed";
