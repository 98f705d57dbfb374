import { expect } from "chai";
import { buildApp } from "../api/app";
import type { Store } from "../store/open";
import { TEST_CHAIN_ID } from "../../test-support/records/testing";
import {
  SITE_CREATORS,
  SITE_NOW,
  SITE_SEASON,
  seededSiteStore,
  siteCreator,
} from "../../test-support/site/testing";

describe("site: creators by the operator's name", function () {
  let store: Store;
  before(async () => {
    store = await seededSiteStore();
  });
  after(async () => store.close());

  const page = async (url: string, creators?: Record<string, string>) => {
    const app = await buildApp({
      store,
      chainId: TEST_CHAIN_ID,
      now: () => SITE_NOW,
      ...(creators ? { creators } : {}),
    });
    try {
      const res = await app.inject(url);
      expect(res.statusCode, url).to.equal(200);
      return res.body.replace(/\s+/g, " ");
    } finally {
      await app.close();
    }
  };

  it("the leaderboard shows a named creator's name with its address in the title, else the short address", async () => {
    const c1 = SITE_CREATORS["Ada Labs"]!;
    const c3 = siteCreator("c3");
    const named = await page(`/?season=${SITE_SEASON}`, SITE_CREATORS);
    expect(named).to.contain(`<abbr class="creator" title="${c1}">Ada Labs</abbr>`);
    expect(named).to.contain(
      `<abbr class="creator" title="${SITE_CREATORS["cy-house_2.0"]}">cy-house_2.0</abbr>`,
    );
    expect(named).not.to.contain(`title="${c1}">${c1.slice(0, 10)}…`);
    // c3 (agent dee) has no name: its short address, the full one in the title.
    expect(named).to.contain(`<span class="mono" title="${c3}">${c3.slice(0, 10)}…${c3.slice(-4)}</span>`);
    const bare = await page(`/?season=${SITE_SEASON}`);
    expect(bare).not.to.contain("Ada Labs");
    expect(bare).not.to.contain('class="creator"');
  });

  it("the agent page names its creator and keeps the full address to copy", async () => {
    const c1 = SITE_CREATORS["Ada Labs"]!;
    const ada = await page(`/agents/ada?season=${SITE_SEASON}`, SITE_CREATORS);
    const fact = /<dd id="creator">(.*?)<\/dd>/.exec(ada)?.[1] ?? "";
    expect(fact).to.contain(`<abbr class="creator" title="${c1}">Ada Labs</abbr>`);
    expect(fact).to.contain(`<code class="seal">${c1}</code>`);
    const dee = await page(`/agents/dee?season=${SITE_SEASON}`, SITE_CREATORS);
    const deeFact = /<dd id="creator">(.*?)<\/dd>/.exec(dee)?.[1] ?? "";
    expect(deeFact).to.contain(`<span class="mono seal">${siteCreator("c3")}</span>`);
    expect(deeFact).not.to.contain("abbr");
  });
});
