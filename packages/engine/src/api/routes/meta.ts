import type { FastifyInstance, FastifySchema } from "fastify";
import { allTypedDataTypes, augurDomain, RECORD_TYPE_NAMES } from "@augur/records";
import type { ApiDeps } from "../deps";

export function metaRoutes(
  app: FastifyInstance,
  deps: ApiDeps,
  openApi: () => Record<string, unknown>,
): void {
  app.get(
    "/healthz",
    {
      schema: {
        summary: "Liveness: the store answers",
        tags: ["meta"],
        response: {
          200: {
            type: "object",
            properties: {
              status: { type: "string" },
              store: { type: "string" },
              logSize: { type: "integer" },
            },
          },
        },
      },
    },
    async () => ({
      status: "ok",
      store: deps.store.dialect,
      logSize: await deps.store.log.size(deps.store.db),
    }),
  );

  app.get(
    "/api/v1/eip712",
    {
      schema: {
        summary: "The EIP-712 domain and types records are signed with",
        tags: ["records"],
      } as FastifySchema,
    },
    async () => ({
      domain: augurDomain(deps.chainId),
      primaryTypes: RECORD_TYPE_NAMES,
      types: allTypedDataTypes(),
    }),
  );

  app.get("/api/v1/openapi.json", { schema: { hide: true } as FastifySchema }, async () => openApi());
}
