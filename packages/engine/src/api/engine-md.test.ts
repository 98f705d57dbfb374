import { expect } from "chai";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { openStore, type Store } from "../store/open";
import { testApp } from "./testing";

const ENGINE_MD = join(__dirname, "..", "..", "..", "..", "docs", "engine.md");

/** `METHOD /path/{param}` of each row of the route table under "## HTTP API". */
function documentedRoutes(markdown: string): string[] {
  const section = markdown.split(/^## HTTP API$/m)[1]!.split(/^## /m)[0]!;
  const table = section.slice(section.indexOf("| route"));
  return [...table.matchAll(/^\| `(GET|POST|PUT|DELETE|PATCH) ([^`?]+)(?:\?[^`]*)?` +\|/gm)].map(
    ([, method, path]) => `${method} ${path!.replace(/:([A-Za-z_]+)/g, "{$1}")}`,
  );
}

describe("docs/engine.md's route table is the served openapi.json", () => {
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

  it("lists every route of the document, and no route the document lacks (but the document itself)", async () => {
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
