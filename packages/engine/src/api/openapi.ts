import type { FastifyInstance, RouteOptions } from "fastify";
import { EIP712_NAME, EIP712_VERSION } from "@augur/records";
import { messageSchemas } from "./schemas";

interface RouteSchema {
  summary?: string;
  description?: string;
  tags?: string[];
  hide?: boolean;
  params?: { properties?: Record<string, unknown>; required?: string[] };
  querystring?: { properties?: Record<string, unknown>; required?: string[] };
  body?: unknown;
  response?: Record<string, unknown>;
}

type Operations = Record<string, Record<string, unknown>>;

/**
 * Collects every route's JSON schemas as routes are added and turns them into an OpenAPI 3.1
 * document, so the document is generated from exactly the schemas that validate requests.
 */
export function collectOpenApi(app: FastifyInstance): () => Record<string, unknown> {
  const paths: Record<string, Operations> = {};
  app.addHook("onRoute", (route: RouteOptions) => {
    const schema = route.schema as RouteSchema | undefined;
    if (!schema || schema.hide) return;
    const path = route.url.replace(/:([A-Za-z_]+)/g, "{$1}");
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== "HEAD");
    for (const method of methods) {
      (paths[path] ??= {})[method.toLowerCase()] = operation(schema);
    }
  });
  return () => ({
    openapi: "3.1.0",
    info: {
      title: "Augur ledger engine API",
      version: "1",
      description: `Sealed records, Merkle log anchors and Augur scores. Records are EIP-712 typed data under the domain { name: "${EIP712_NAME}", version: "${EIP712_VERSION}", chainId }.`,
    },
    paths,
    components: { schemas: messageSchemas() },
  });
}

function parameters(where: "path" | "query", group: RouteSchema["params"]): unknown[] {
  return Object.entries(group?.properties ?? {}).map(([name, schema]) => ({
    name,
    in: where,
    required: where === "path" || (group?.required ?? []).includes(name),
    schema,
  }));
}

function operation(schema: RouteSchema): Record<string, unknown> {
  const responses = Object.fromEntries(
    Object.entries(schema.response ?? {}).map(([status, body]) => [
      status,
      {
        description: (body as { description?: string }).description ?? `HTTP ${status}`,
        content: { "application/json": { schema: body } },
      },
    ]),
  );
  return {
    ...(schema.summary ? { summary: schema.summary } : {}),
    ...(schema.description ? { description: schema.description } : {}),
    ...(schema.tags ? { tags: schema.tags } : {}),
    parameters: [...parameters("path", schema.params), ...parameters("query", schema.querystring)],
    ...(schema.body
      ? { requestBody: { required: true, content: { "application/json": { schema: schema.body } } } }
      : {}),
    responses,
  };
}
