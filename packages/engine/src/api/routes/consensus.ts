import type { FastifyInstance } from "fastify";
import type { ApiDeps } from "../deps";
import { addressSchema, errorBody, hex32Schema, uintSchema } from "../schemas";
import { consensusRounds } from "../../store/queries/consensus";
import { consensusMarkets } from "../../store/queries/consensus";
import { assetParamSchema, resolveAsset, tickerOf } from "../assets";

const tickerSchema = {
  type: ["string", "null"],
  description: "the asset's ticker from `GET /api/v1/assets`, null when it has none",
} as const;

/** The longest call window the API accepts, seconds (one year). */
const MAX_WINDOW = 365 * 86400;

/** `GET /api/v1/consensus/:asset/:window`. */
export function consensusRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get(
    "/api/v1/consensus/:asset/:window",
    {
      schema: {
        summary: "Consensus events of one market (CallLedger `Consensus`), newest round first",
        tags: ["consensus"],
        params: {
          type: "object",
          required: ["asset", "window"],
          properties: {
            asset: assetParamSchema,
            window: { type: "integer", minimum: 1, maximum: MAX_WINDOW },
          },
        },
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: { limit: { type: "integer", minimum: 1, maximum: 500, default: 50 } },
        },
        response: {
          200: {
            type: "object",
            required: ["asset", "ticker", "window", "rounds"],
            properties: {
              asset: addressSchema,
              ticker: tickerSchema,
              window: uintSchema,
              rounds: {
                type: "array",
                items: {
                  type: "object",
                  properties: {
                    bucket: uintSchema,
                    closesFrom: {
                      ...uintSchema,
                      description: "bucket × window: the round's calls close from…",
                    },
                    closesUntil: { ...uintSchema, description: "…until (bucket + 1) × window, Unix seconds" },
                    direction: { type: "string", enum: ["up", "down"] },
                    strengthBps: uintSchema,
                    voters: uintSchema,
                    upWeight: { type: "string" },
                    downWeight: { type: "string" },
                    blockNumber: uintSchema,
                    txHash: hex32Schema,
                    logIndex: uintSchema,
                    at: uintSchema,
                  },
                },
              },
            },
          },
          "4xx": errorBody,
        },
      },
    },
    (request) => {
      const { asset, window } = request.params as { asset: string; window: number };
      return roundsView(deps, asset, window, (request.query as { limit: number }).limit);
    },
  );
}

/** One market's consensus events, newest round first. */
async function roundsView(deps: ApiDeps, asset: string, window: number, limit: number) {
  const lower = resolveAsset(deps, asset);
  const rows = await consensusRounds(deps.store.db, lower, window, limit);
  return {
    asset: lower,
    ticker: tickerOf(deps, lower),
    window,
    rounds: rows.map((r) => ({
      bucket: r.bucket,
      closesFrom: r.bucket * window,
      closesUntil: (r.bucket + 1) * window,
      direction: r.direction,
      strengthBps: r.strength_bps,
      voters: r.voters,
      upWeight: r.up_weight,
      downWeight: r.down_weight,
      blockNumber: r.block_number,
      txHash: r.tx_hash,
      logIndex: r.log_index,
      at: r.block_timestamp,
    })),
  };
}

/** What `GET /api/v1/consensus/:asset/:window` answers. */
export type RoundsView = Awaited<ReturnType<typeof roundsView>>;

/** Every market with consensus events, by asset then window. */
async function marketsView(deps: ApiDeps) {
  return {
    markets: (await consensusMarkets(deps.store.db)).map((m) => ({
      asset: m.asset,
      ticker: tickerOf(deps, m.asset),
      window: m.window_seconds,
      events: Number(m.events),
    })),
  };
}

/** What `GET /api/v1/consensus` answers. */
export type MarketsView = Awaited<ReturnType<typeof marketsView>>;

/** `GET /api/v1/consensus`: the markets the consensus page lists. */
export function consensusMarketRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get(
    "/api/v1/consensus",
    {
      schema: {
        summary: "Markets with consensus events",
        tags: ["consensus"],
        response: { "4xx": errorBody },
      },
    },
    () => marketsView(deps),
  );
}
