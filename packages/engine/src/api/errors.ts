import { AugurError, InvalidInputError } from "@augur/scorer";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { RecordRefusedError } from "@augur/records";

/** An API answer other than 2xx: `{ error: { code, message } }` with the given status. */
export class ApiError extends AugurError {
  override readonly name = "ApiError";
  readonly status: number;
  constructor(status: number, code: string, message: string, details: Record<string, unknown> = {}) {
    super(code, message, details);
    this.status = status;
  }
}

/** Fastify's own 4xx errors, renamed to stable codes. */
const FRAMEWORK_CODES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: "BODY_TOO_LARGE",
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "UNSUPPORTED_MEDIA_TYPE",
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: "BAD_CONTENT_LENGTH",
  FST_ERR_CTP_EMPTY_JSON_BODY: "EMPTY_BODY",
  FST_ERR_CTP_INVALID_JSON_BODY: "INVALID_JSON",
  FST_ERR_BAD_URL: "BAD_URL",
  FST_ERR_ASYNC_CONSTRAINT: "BAD_REQUEST",
};

export function errorPayload(code: string, message: string) {
  return { error: { code, message } };
}

/** A schema refusal; an enum refusal names the values it allows (Ajv's own text does not). */
function validationMessage(e: FastifyError): string {
  const first = e.validation?.[0];
  const allowed =
    first?.keyword === "enum" ? (first.params as { allowedValues?: unknown[] }).allowedValues : undefined;
  return allowed ? `${e.message}: ${allowed.map(String).join(", ")}` : e.message;
}

/** The status, code and message the API answers an error with (5xx: INTERNAL, nothing more). */
export function errorAnswer(error: FastifyError | Error): { status: number; code: string; message: string } {
  const e = error as FastifyError;
  if (e.validation) return { status: 400, code: "INVALID_INPUT", message: validationMessage(e) };
  if (error instanceof ApiError || error instanceof RecordRefusedError) {
    return { status: error.status, code: error.code, message: error.shortMessage };
  }
  if (error instanceof InvalidInputError)
    return { status: 400, code: error.code, message: error.shortMessage };
  if (typeof e.statusCode === "number" && e.statusCode >= 400 && e.statusCode < 500) {
    const code = FRAMEWORK_CODES[e.code] ?? (e.statusCode === 429 ? "RATE_LIMITED" : "BAD_REQUEST");
    if (code === "UNSUPPORTED_MEDIA_TYPE")
      return { status: 415, code, message: "unsupported content type: send the body as application/json" };
    // JSON.parse's messages are safe to echo; anything else gets its status text.
    return { status: e.statusCode, code, message: e.message || "bad request" };
  }
  return { status: 500, code: "INTERNAL", message: "internal error" };
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** The methods a path answers to (HEAD goes with GET): empty when no route has that path. */
function allowedMethods(request: FastifyRequest): string[] {
  const url = request.url.split(/[?#]/, 1)[0]!;
  const allowed = METHODS.filter((method) => request.server.findRoute({ method, url }) !== null);
  return allowed.includes("GET") ? [...allowed, "HEAD"] : allowed;
}

/**
 * The API's answer to an unrouted request: 405 with `Allow` when the path exists under other
 * methods, else 404; a JSON error naming the method and path.
 */
export function apiNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const allowed = allowedMethods(request);
  if (allowed.length > 0) {
    return reply
      .code(405)
      .header("allow", allowed.join(", "))
      .send(
        errorPayload(
          "METHOD_NOT_ALLOWED",
          `${request.method} is not allowed on ${request.url.slice(0, 200)}: use ${allowed.join(" or ")}`,
        ),
      );
  }
  return reply
    .code(404)
    .send(errorPayload("NOT_FOUND", `no route ${request.method} ${request.url.slice(0, 200)}`));
}

/** JSON errors for every failure; `notFound` answers unknown routes (the site passes its own). */
export function installErrorHandlers(
  app: FastifyInstance,
  notFound: (
    request: FastifyRequest,
    reply: FastifyReply,
  ) => FastifyReply | Promise<FastifyReply> = apiNotFound,
): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const { status, code, message } = errorAnswer(error);
    if (status >= 500) request.log.error({ err: error }, "request failed");
    else request.log.info({ code, status }, message);
    return reply.code(status).send(errorPayload(code, message));
  });
  app.setNotFoundHandler(notFound);
}
