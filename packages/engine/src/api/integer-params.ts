import type { FastifyInstance, FastifyRequest, RouteOptions } from "fastify";
import { ApiError } from "./errors";

/** A decimal integer as a person writes it: no sign but `-`, no exponent, no padding, no hex. */
const INTEGER_TEXT = /^(0|-?[1-9][0-9]{0,15})$/;

type Part = "params" | "querystring";

/** The names of a route's `type: "integer"` parameters in one part of its schema. */
function integerNames(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties;
  if (!properties) return [];
  return Object.keys(properties).filter((name) => properties[name]?.type === "integer");
}

function isSafeIntegerText(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(isSafeIntegerText); // Ajv refuses 2+ values itself
  return typeof value === "string" && INTEGER_TEXT.test(value) && Number.isSafeInteger(Number(value));
}

/**
 * Integer parameters must be integers before Ajv coerces them: its coercion turns `Infinity`,
 * `1e400`, `0x10`, ` 1` or `9007199254740993` into numbers that then pass `type: integer` (and
 * ±Infinity even `maximum`) and break the serializer or SQL. Every route's integer query and path
 * parameters are checked as text here, so a new route is covered without opting in.
 */
export function installIntegerParams(app: FastifyInstance): void {
  app.addHook("onRoute", (route: RouteOptions) => {
    const schema = route.schema as Partial<Record<Part, unknown>> | undefined;
    const checks = (["params", "querystring"] as const).flatMap((part) =>
      integerNames(schema?.[part]).map((name) => ({ part, name })),
    );
    if (checks.length === 0) return;
    const check = async (request: FastifyRequest) => {
      for (const { part, name } of checks) {
        const source = (part === "params" ? request.params : request.query) as Record<string, unknown>;
        const value = source?.[name];
        if (value !== undefined && !isSafeIntegerText(value)) {
          throw new ApiError(
            400,
            "INVALID_INPUT",
            `${part}/${name} must be a safe integer in decimal digits`,
          );
        }
      }
    };
    const existing = route.preValidation;
    route.preValidation = existing ? [check, ...(Array.isArray(existing) ? existing : [existing])] : [check];
  });
}
