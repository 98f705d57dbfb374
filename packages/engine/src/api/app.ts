import cors from "@fastify/cors";
import rateLimit from "@fastify/rate-limit";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from "fastify";
import type { ApiDeps } from "./deps";
import { ApiError, errorPayload, installErrorHandlers } from "./errors";
import { collectOpenApi } from "./openapi";
import { anchorRoutes } from "./routes/anchors";
import { consensusMarketRoutes, consensusRoutes } from "./routes/consensus";
import { historyRoutes } from "./routes/history";
import { metaRoutes } from "./routes/meta";
import { modeRoutes } from "./routes/modes";
import { RECORD_BODY_LIMIT, recordReadRoutes, recordRoutes } from "./routes/records";
import { refereeRoutes } from "./routes/referee";
import { riskRoutes, seasonRiskRoutes } from "./routes/risk";
import { scoreHistoryRoutes, scoreRoutes } from "./routes/scores";
import { seasonListRoutes, seasonRoutes } from "./routes/seasons";
import { standingsRoutes } from "./routes/standings";
import { apiDocsRoutes } from "./routes/docs";
import { stewardshipRoutes } from "./routes/stewardship";
import { registerSite, siteNotFound } from "../site/register";
import { installWriteGuard } from "./write-guard";

export interface AppOptions {
  /** pino options, or false for no logs (tests). */
  readonly logger?: FastifyServerOptions["logger"];
  /** Record submissions per client IP per minute (default 600). */
  readonly writesPerMinute?: number;
}

/** The HTTP API over one store; listen() is the caller's (so tests can `inject`). */
export async function buildApp(deps: ApiDeps, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: RECORD_BODY_LIMIT,
    routerOptions: { maxParamLength: 200 },
    ajv: { customOptions: { removeAdditional: false, allErrors: false } },
    frameworkErrors: (error, _request, reply) => {
      void (reply as FastifyReply).code(400).send(errorPayload("BAD_REQUEST", error.message));
    },
  });
  installErrorHandlers(app, siteNotFound); // HTML 404 outside /api, JSON inside
  const openApi = collectOpenApi(app);

  await app.register(cors, { origin: "*", methods: ["GET", "HEAD"] });
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new ApiError(429, "RATE_LIMITED", `too many submissions: at most ${context.max} per ${context.after}`),
  });

  installWriteGuard(app, deps); // before the routes: a wound-down system stores nothing
  // Every /api/v1 route. The OpenAPI document lists paths in the order they are added: this
  // order is the published document's, so a new route goes at the end.
  metaRoutes(app, deps, openApi);
  apiDocsRoutes(app);
  recordRoutes(app, deps, { perMinute: options.writesPerMinute ?? 600 });
  recordReadRoutes(app, deps);
  scoreRoutes(app, deps);
  riskRoutes(app, deps);
  refereeRoutes(app, deps);
  anchorRoutes(app, deps);
  seasonRoutes(app, deps);
  consensusRoutes(app, deps);
  stewardshipRoutes(app, deps);
  modeRoutes(app, deps);
  seasonListRoutes(app, deps);
  standingsRoutes(app, deps);
  historyRoutes(app, deps);
  seasonRiskRoutes(app, deps);
  consensusMarketRoutes(app, deps);
  scoreHistoryRoutes(app, deps);
  registerSite(app); // the pages, which read the routes above in process

  await app.ready();
  return app;
}
