import { expect } from "chai";
import { buildApp } from "../api/app";
import { TEST_CHAIN_ID } from "../../test-support/records/testing";
import { SITE_NOW, SITE_SEASON, seededSiteStore } from "../../test-support/site/testing";

/** The page's "verify it yourself" command, as the reader copies it. */
function verifyCommand(page: string): string {
  const match = /<code id="verify-command">([^<]*)<\/code>/.exec(page);
  if (!match) throw new Error("no verify command on the page");
  return match[1]!;
}

describe("site origin: the URLs a page prints", () => {
  it("uses the configured public origin whatever Host the request claims, and prints the chain flags", async () => {
    const store = await seededSiteStore();
    const app = await buildApp(
      { store, chainId: TEST_CHAIN_ID, now: () => SITE_NOW },
      { publicOrigin: "https://augur.example" },
    );
    try {
      const registry = (
        (await app.inject(`/api/v1/agents/ada/score?season_id=${SITE_SEASON}`)).json() as {
          anchor: { registry: string };
        }
      ).anchor.registry;
      const expected = `npx augur verify --api https://augur.example --agent ada --season ${SITE_SEASON} --rpc RPC_URL --registry ${registry}`;
      for (const host of [undefined, "evil.example", "evil.example:443", "127.0.0.1:1"]) {
        const res = await app.inject({
          url: `/agents/ada?season=${SITE_SEASON}`,
          headers: host ? { host, "x-forwarded-host": host } : {},
        });
        expect(res.statusCode).to.equal(200);
        expect(verifyCommand(res.body), `Host ${host}`).to.equal(expected);
        expect(res.body).to.not.contain("evil.example");
      }
    } finally {
      await app.close();
      await store.close();
    }
  });

  it("defaults to the address the server listens on, not the Host header", async () => {
    const store = await seededSiteStore();
    const app = await buildApp({ store, chainId: TEST_CHAIN_ID, now: () => SITE_NOW });
    try {
      await app.listen({ port: 0, host: "127.0.0.1" });
      const port = (app.server.address() as { port: number }).port;
      const res = await fetch(`http://127.0.0.1:${port}/agents/ada?season=${SITE_SEASON}`, {
        headers: { "x-forwarded-host": "evil.example" },
      });
      expect(verifyCommand(await res.text())).to.match(
        new RegExp(`^npx augur verify --api http://127\\.0\\.0\\.1:${port} --agent ada `),
      );
    } finally {
      await app.close();
      await store.close();
    }
  });
});
