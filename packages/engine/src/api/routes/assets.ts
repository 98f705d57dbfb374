import type { FastifyInstance } from "fastify";
import type { ApiDeps } from "../deps";
import { assetDirectory } from "../assets";
import { addressSchema, errorBody } from "../schemas";

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
          200: {
            type: "object",
            required: ["assets"],
            properties: {
              assets: {
                type: "array",
                items: {
                  type: "object",
                  required: ["ticker", "address"],
                  properties: { ticker: { type: "string" }, address: addressSchema },
                },
              },
            },
          },
          "4xx": errorBody,
        },
      },
    },
    (): AssetsView => ({ assets: assetDirectory(deps) }),
  );
}
