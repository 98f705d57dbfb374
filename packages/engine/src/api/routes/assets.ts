import type { FastifyInstance } from "fastify";
import type { ApiDeps } from "../deps";
import { assetDirectory } from "../assets";
import { directorySchema, errorBody } from "../schemas";

/** What `GET /api/v1/assets` answers. */
export type AssetsView = { assets: { ticker: string; address: string }[] };

/** `GET /api/v1/assets`: the tickers this engine knows, each with its token address. */
export function assetRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get(
    "/api/v1/assets",
    {
      schema: {
        summary: "The asset directory: tickers and token addresses (routes taking an asset accept either)",
        tags: ["consensus"],
        response: {
          200: directorySchema("assets", "ticker"),
          "4xx": errorBody,
        },
      },
    },
    (): AssetsView => ({ assets: assetDirectory(deps) }),
  );
}
