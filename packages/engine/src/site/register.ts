import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { apiNotFound } from "../api/errors";
import { SitePageError } from "./errors";
import { html } from "./html";
import { layout, withModeBanner } from "./layout";
import { currentBanner } from "./mode-banner";
import { agentPage } from "./pages/agent";
import { consensusPage } from "./pages/consensus";
import { leaderboardPage } from "./pages/leaderboard";
import { methodologyPage } from "./pages/methodology";
import { modePage } from "./pages/mode";
import { receiptPage } from "./pages/receipt";
import { recordPage } from "./pages/record";
import { refereePage } from "./pages/referee";
import { riskPage } from "./pages/risk";
import { riskComponentPage } from "./pages/risk-component";
import { evidencePage } from "./pages/evidence";
import { stewardshipPage } from "./pages/stewardship";
import { siteOrigin } from "./origin";

/** Nothing may load from elsewhere: the CSS and the one script are inline, images are data: URLs. */
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

function errorPage(error: SitePageError): string {
  return layout({
    title: `Error ${error.status}`,
    nav: "error",
    body: html`<h1>${error.status === 404 ? "Not found" : "Cannot show this page"}</h1>
      <p id="error-message">${error.shortMessage}</p>
      <p class="muted">Code ${error.code}. <a href="/">Back to the leaderboard</a></p>`,
  });
}

/** Every page goes out as HTML under the same Content-Security-Policy. */
function asHtml(reply: FastifyReply): FastifyReply {
  return reply.header("content-security-policy", CONTENT_SECURITY_POLICY).type("text/html; charset=utf-8");
}

type PageHandler = (request: FastifyRequest) => Promise<string> | string;

/** A page route: the rendered page (or its error page) with the mode banner of this moment. */
function pageRoute(app: FastifyInstance) {
  return (render: PageHandler) => async (request: FastifyRequest, reply: FastifyReply) => {
    void asHtml(reply);
    const banner = await currentBanner(app);
    try {
      return withModeBanner(await render(request), banner);
    } catch (error) {
      if (error instanceof SitePageError)
        return reply.code(error.status).send(withModeBanner(errorPage(error), banner));
      throw error;
    }
  };
}

/** `/api` and everything under it belongs to the JSON API, whose clients read JSON errors. */
const isApiPath = (url: string) => /^\/api(?:[/?#]|$)/.test(url);

/**
 * Unknown routes: a person following a bad link (GET or HEAD outside `/api`) gets a 404 page
 * in the site's layout, with the mode banner like every page; API clients and other methods
 * keep the API's JSON 404.
 */
export async function siteNotFound(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  if (isApiPath(request.url) || (request.method !== "GET" && request.method !== "HEAD")) {
    return apiNotFound(request, reply);
  }
  const path = request.url.split(/[?#]/, 1)[0]!.slice(0, 200);
  const error = new SitePageError(404, "NOT_FOUND", `there is no page at ${path}`);
  const banner = await currentBanner(request.server);
  return asHtml(reply)
    .code(404)
    .send(withModeBanner(errorPage(error), banner));
}

const query = (r: FastifyRequest) => r.query as Record<string, unknown>;

/**
 * The site: server-rendered pages over the `/api/v1` views the public API serves (read in
 * process with `inject`, so a page shows exactly what the API answers and knows nothing more).
 */
export function registerSite(app: FastifyInstance, publicOrigin?: string): void {
  const page = pageRoute(app);
  const origin = siteOrigin(app, publicOrigin);
  app.get(
    "/",
    page((r) => leaderboardPage(app, query(r))),
  );
  app.get(
    "/agents/:id",
    page((r) => agentPage(app, r.params as Record<string, unknown>, query(r), origin())),
  );
  app.get(
    "/consensus",
    page(() => consensusPage(app)),
  );
  app.get(
    "/referee",
    page((r) => refereePage(app, query(r))),
  );
  app.get(
    "/risk",
    page((r) => riskPage(app, query(r))),
  );
  app.get(
    "/risk/:component",
    page((r) => riskComponentPage(app, r.params as Record<string, unknown>, query(r))),
  );
  app.get(
    "/agents/:id/evidence",
    page((r) => evidencePage(app, r.params as Record<string, unknown>, query(r))),
  );
  app.get(
    "/stewardship",
    page(() => stewardshipPage(app)),
  );
  app.get(
    "/methodology",
    page(() => methodologyPage()),
  );
  app.get(
    "/mode",
    page(() => modePage(app)),
  );
  app.get(
    "/receipt",
    page(() => receiptPage(app)),
  );
  app.get(
    "/records/:seal",
    page((r) => recordPage(app, r.params as Record<string, unknown>)),
  );
}
