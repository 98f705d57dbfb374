import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from "fastify";
import { DEFAULT_SERVER_LIMITS, type ServerLimits } from "../config/env";
import { errorPayload } from "./errors";
import { RECORD_BODY_LIMIT } from "./routes/records";

/** Node checks its header and request deadlines on a timer: often enough that they hold to ~1 s. */
function checkingIntervalMs(limits: ServerLimits): number {
  return Math.max(50, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4)));
}

/**
 * A Fastify instance configured as the API's (the schema compiler's options, framework errors,
 * JSON bodies only): `buildApp` serves from one, and the record writer thread
 * (`api/record-writer-thread.ts`) parses and validates submissions with another, so both answer
 * a body alike.
 */
export function apiFastify(
  logger: FastifyServerOptions["logger"],
  limits: ServerLimits = DEFAULT_SERVER_LIMITS,
): FastifyInstance {
  const app = Fastify({
    logger,
    connectionTimeout: limits.idleTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: checkingIntervalMs(limits),
    },
    bodyLimit: RECORD_BODY_LIMIT,
    routerOptions: { maxParamLength: 200 },
    ajv: { customOptions: { removeAdditional: false, allErrors: false } },
    frameworkErrors: (error, _request, reply) => {
      void (reply as FastifyReply).code(400).send(errorPayload("BAD_REQUEST", error.message));
    },
  });
  app.server.maxConnections = limits.maxConnections;
  // Bodies are JSON only: Fastify's default text/plain parser would let a plain-text body reach
  // the schema (400); without it any other content type is refused with 415 as documented.
  app.removeContentTypeParser("text/plain");
  return app;
}
