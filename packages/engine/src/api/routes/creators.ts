import type { FastifyInstance } from "fastify";
import type { ApiDeps } from "../deps";
import { directorySchema, errorBody } from "../schemas";

/** What `GET /api/v1/creators` answers. */
export type CreatorsView = { creators: { name: string; address: string }[] };

/** `GET /api/v1/creators`: the operator's names for creator addresses, sorted by name. */
export function creatorRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get(
    "/api/v1/creators",
    {
      schema: {
        summary:
          "The creator directory: the operator's display names for creator addresses (never sealed or scored)",
        tags: ["scores"],
        response: {
          200: directorySchema("creators", "name"),
          "4xx": errorBody,
        },
      },
    },
    (): CreatorsView => ({
      creators: Object.entries(deps.creators ?? {})
        .map(([name, address]) => ({ name, address: address.toLowerCase() }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    }),
  );
}
