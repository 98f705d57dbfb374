import { expect } from "chai";
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import type { Browser } from "playwright-core";
import { launchChromium, visit } from "../../../test-support/site/browser";
import { openStore, type Store } from "../../store/open";
import { testApp } from "../../../test-support/api/testing";
import { API_DOCS_CSP } from "./docs";

const ENGINE_MD = join(__dirname, "..", "..", "..", "..", "..", "docs", "engine.md");

/** `METHOD /path/{param}` of each row of the route table under "## HTTP API". */
function documentedRoutes(markdown: string): string[] {
  const section = markdown.split(/^## HTTP API$/m)[1]!.split(/^## /m)[0]!;
  const table = section.slice(section.indexOf("| route"));
  return [...table.matchAll(/^\| `(GET|POST|PUT|DELETE|PATCH) ([^`?]+)(?:\?[^`]*)?` +\|/gm)].map(
    ([, method, path]) => `${method} ${path!.replace(/:([A-Za-z_]+)/g, "{$1}")}`,
  );
}

describe("API docs for outsiders: /api/docs and the route table of docs/engine.md", () => {
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

  it("docs/engine.md's route table lists every route of openapi.json, and no other (but the document itself)", async () => {
    const doc = (await app.inject({ method: "GET", url: "/api/v1/openapi.json" })).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const served = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const documented = documentedRoutes(readFileSync(ENGINE_MD, "utf8"));
    expect(new Set(documented).size, "a route listed twice").to.equal(documented.length);
    expect(
      documented.filter((r) => !served.includes(r)),
      "in docs/engine.md, not served",
    ).to.deep.equal(["GET /api/v1/openapi.json"]);
    expect(
      served.filter((r) => !documented.includes(r)),
      "served, not in docs/engine.md",
    ).to.deep.equal([]);
    expect(served.length).to.be.greaterThan(20);
  });
});
