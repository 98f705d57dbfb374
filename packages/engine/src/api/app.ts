import cors from "@fastify/cors";
import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyServerOptions } from "fastify";
import type { ApiDeps } from "./deps";
import { ApiError, installErrorHandlers } from "./errors";
import { apiFastify } from "./fastify";
import { collectOpenApi } from "./openapi";
import { anchorRoutes } from "./routes/anchors";
import { assetRoutes } from "./routes/assets";
import { creatorRoutes } from "./routes/creators";
import { erasureRoutes } from "./routes/erasure";
import { evidenceRoutes } from "./routes/evidence";
import { riskComponentRoutes } from "./routes/risk-components";
import { consensusMarketRoutes, consensusRoutes } from "./routes/consensus";
import { historyRoutes } from "./routes/history";
import { inputRoutes } from "./routes/inputs";
import { logRoutes } from "./routes/log";
import { metaRoutes } from "./routes/meta";
import { modeRoutes } from "./routes/modes";
import { isRecordSubmission, recordReadRoutes, recordRoutes, usesRecordWriter } from "./routes/records";
import { refereeRoutes } from "./routes/referee";
import { riskRoutes, seasonRiskRoutes } from "./routes/risk";
import { scoreHistoryRoutes, scoreRoutes } from "./routes/scores";
import { seasonListRoutes, seasonRoutes } from "./routes/seasons";
import { standingsRoutes } from "./routes/standings";
import { apiDocsRoutes } from "./routes/docs";
import { stewardshipRoutes } from "./routes/stewardship";
import { registerSite, siteNotFound } from "../site/register";
import { installWriteGuard } from "./write-guard";
import { installIntegerParams } from "./integer-params";
import { DEFAULT_SERVER_LIMITS, type ServerLimits } from "../config/env";

export interface AppOptions {
  /** pino options, or false for no logs (tests). */
  readonly logger?: FastifyServerOptions["logger"];
  /** Record submissions per client IP per minute (default 600). */
  readonly writesPerMinute?: number;
  /** Timeouts and the connection cap once listening (default DEFAULT_SERVER_LIMITS). */
  readonly limits?: ServerLimits;
  /** The origin the site prints in its URLs (default: the listen address; never the Host header). */
  readonly publicOrigin?: string;
  /** Worker threads that check record submissions (default 0: inline, as tests want). */
  readonly ingestWorkers?: number;
}

/** The HTTP API over one store; listen() is the caller's (so tests can `inject`). */
export async function buildApp(deps: ApiDeps, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = apiFastify(options.logger ?? false, options.limits ?? DEFAULT_SERVER_LIMITS);
  installErrorHandlers(app, siteNotFound); // HTML 404 outside /api, JSON inside
  const openApi = collectOpenApi(app);

  await app.register(cors, { origin: "*", methods: ["GET", "HEAD"] });
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new ApiError(429, "RATE_LIMITED", `too many submissions: at most ${context.max} per ${context.after}`),
  });

  installIntegerParams(app); // before the routes: it checks each route as it is added
  const writeLimits = {
    perMinute: options.writesPerMinute ?? 600,
    ingestWorkers: options.ingestWorkers ?? 0,
  };
  // Before the routes: a wound-down system stores nothing (the record writer checks its own).
  installWriteGuard(app, deps, usesRecordWriter(deps, writeLimits) ? isRecordSubmission : undefined);
  // Every /api/v1 route. The OpenAPI document lists paths in the order they are added: this
  // order is the published document's, so a new route goes at the end.
  metaRoutes(app, deps, openApi);
  apiDocsRoutes(app);
  recordRoutes(app, deps, writeLimits);
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
  assetRoutes(app, deps);
  creatorRoutes(app, deps);
  logRoutes(app, deps);
  inputRoutes(app, deps);
  scoreHistoryRoutes(app, deps);
  riskComponentRoutes(app, deps);
  evidenceRoutes(app, deps);
  erasureRoutes(app, deps, options.writesPerMinute ?? 600);
  registerSite(app, options.publicOrigin); // the pages, which read the routes above in process

  await app.ready();
  return app;
}
