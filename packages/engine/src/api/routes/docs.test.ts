import { expect } from "chai";
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import type { Browser } from "playwright-core";
import { launchChromium, visit } from "../../site/browser";
import { openStore, type Store } from "../../store/open";
import { testApp } from "../testing";
import { API_DOCS_CSP } from "./docs";

describe("GET /api/docs: the OpenAPI document as a readable page, offline", () => {
  let store: Store;
  let app: FastifyInstance;
  before(async () => {
    store = await openStore({ kind: "sqlite", file: ":memory:" });
    app = await testApp(store);
  });
  after(async () => {
    await app.close();
    await store.close();
  });

  it("serves the page under a policy that lets nothing load from another origin", async () => {
    const res = await app.inject({ method: "GET", url: "/api/docs" });
    expect(res.statusCode).to.equal(200);
    expect(res.headers["content-type"]).to.equal("text/html; charset=utf-8");
    expect(res.headers["content-security-policy"]).to.equal(API_DOCS_CSP);
    expect(API_DOCS_CSP).to.match(/^default-src 'none';/);
    expect(API_DOCS_CSP).not.to.match(/https?:|\*/);
    const refs = [...res.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(refs).to.have.length.greaterThan(3);
    for (const ref of refs) {
      expect(ref, "every asset from this origin").to.match(/^\/api\//);
      expect((await app.inject({ method: "GET", url: ref })).statusCode, ref).to.equal(200);
    }
  });

  it("serves only the listed files of the package, and keeps the page out of the API document", async () => {
    for (const url of ["/api/docs/package.json", "/api/docs/..%2Fpackage.json", "/api/docs/index.html"]) {
      const res = await app.inject({ method: "GET", url });
      expect(res.statusCode, url).to.equal(404);
      expect(res.json<{ error: { code: string } }>().error.code, url).to.equal("NOT_FOUND");
    }
    const doc = (await app.inject({ method: "GET", url: "/api/v1/openapi.json" })).json<{ paths: object }>();
    expect(Object.keys(doc.paths).filter((p) => p.startsWith("/api/docs"))).to.deep.equal([]);
  });

  it("renders every route of /api/v1/openapi.json in Chromium, with no error and no request elsewhere", async function () {
    this.timeout(120_000);
    await app.listen({ port: 0, host: "127.0.0.1" });
    const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    let browser: Browser | undefined;
    try {
      browser = await launchChromium();
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const requested: string[] = [];
      page.on("request", (r) => requested.push(r.url()));
      const problems = await visit(page, `${origin}/api/docs`);
      await page.waitForSelector(".opblock-summary-path", { timeout: 60_000 });
      const shown = await page.evaluate<string[]>(
        "[...document.querySelectorAll('.opblock-summary-path')].map((e) => e.getAttribute('data-path'))",
      );
      const doc = (await app.inject({ method: "GET", url: "/api/v1/openapi.json" })).json<{
        paths: Record<string, Record<string, unknown>>;
      }>();
      const operations = Object.values(doc.paths).flatMap((methods) => Object.keys(methods));
      expect(problems).to.deep.equal([]);
      expect(shown).to.have.length(operations.length);
      expect([...new Set(shown)].sort()).to.deep.equal(Object.keys(doc.paths).sort());
      expect(
        requested.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith("data:")),
      ).to.deep.equal([]);
    } finally {
      await browser?.close();
    }
  });
});
