import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { FastifyInstance, FastifySchema } from "fastify";
import { ApiError } from "../errors";

// GET /api/docs: the OpenAPI document as a readable page (Swagger UI from the pinned
// swagger-ui-dist package), every asset served from here, so it works offline.

const DIST = dirname(require.resolve("swagger-ui-dist/package.json"));

/** The files the page loads, by the name it asks for; nothing else of the package is served. */
const ASSETS: Readonly<Record<string, { file: string; type: string }>> = {
  "swagger-ui.css": { file: "swagger-ui.css", type: "text/css; charset=utf-8" },
  "swagger-ui-bundle.js": { file: "swagger-ui-bundle.js", type: "text/javascript; charset=utf-8" },
  "favicon-32x32.png": { file: "favicon-32x32.png", type: "image/png" },
};

/** Loads the UI on the engine's own document; a file, since the policy allows no inline script. */
const INIT_SCRIPT = `window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: "/api/v1/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    validatorUrl: null,
    tryItOutEnabled: false,
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Augur ledger engine API</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
<link rel="icon" type="image/png" href="/api/docs/favicon-32x32.png">
</head>
<body>
<noscript><p>This page needs JavaScript. The same document as JSON: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>; every route is also listed in docs/engine.md.</p></noscript>
<div id="swagger-ui"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script>
</body>
</html>
`;

/**
 * Same rule as the site's pages (nothing loads from elsewhere), with what Swagger UI needs from
 * its own origin: its script and stylesheet files, the document (connect), and data: icons.
 */
export const API_DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const hidden = { hide: true } as FastifySchema;

export function apiDocsRoutes(app: FastifyInstance): void {
  const cache = new Map<string, Buffer>();
  app.get("/api/docs", { schema: hidden }, async (_request, reply) =>
    reply.header("content-security-policy", API_DOCS_CSP).type("text/html; charset=utf-8").send(PAGE),
  );
  app.get("/api/docs/init.js", { schema: hidden }, async (_request, reply) =>
    reply.type("text/javascript; charset=utf-8").send(INIT_SCRIPT),
  );
  app.get("/api/docs/:asset", { schema: hidden }, async (request, reply) => {
    const name = (request.params as { asset: string }).asset;
    const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (!asset) throw new ApiError(404, "NOT_FOUND", `no file ${name} under /api/docs`);
    let body = cache.get(name);
    if (!body) cache.set(name, (body = readFileSync(join(DIST, asset.file))));
    return reply.header("cache-control", "public, max-age=86400").type(asset.type).send(body);
  });
}
