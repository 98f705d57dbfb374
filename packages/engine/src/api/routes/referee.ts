import { MONKEYS, QUANTILE_PERCENTS, REFEREE_METHOD } from "@augur/scorer";
import type { FastifyInstance } from "fastify";
import { ApiError } from "../errors";
import type { ApiDeps } from "../deps";
import { errorBody, hex32Schema, idSchema, uintSchema } from "../schemas";
import { refereeAgentDetail, refereeEpoch, type RefereeEpoch } from "../../referee/served";
import { LogSizeMemo } from "../../site/api/log-memo";
import { findSeason } from "../../store/queries/seasons";

const epochSchema = { ...idSchema, description: "A season id: one referee epoch per season" } as const;
const number = { type: "number" } as const;

const quantilesSchema = {
  type: "object",
  required: ["min", ...QUANTILE_PERCENTS.map((p) => `p${p}`), "max"],
  properties: Object.fromEntries(
    ["min", ...QUANTILE_PERCENTS.map((p) => `p${p}`), "max"].map((k) => [k, number]),
  ),
} as const;

/** The pinned detail object of `augur referee detail --json`. */
const detailProperties = {
  agent: { type: "string" },
  epoch: { type: ["string", "integer"] },
  scored_calls: uintSchema,
  sum_r: number,
  percentile: { type: "number", minimum: 0, maximum: 100 },
  status: { type: "string", enum: ["proving", "ranked"] },
  quantiles: quantilesSchema,
} as const;
const detailRequired = Object.keys(detailProperties);

const leaderboardSchema = {
  type: "object",
  description: "leaderboard.json exactly as `augur referee leaderboard` writes it from this epoch's input",
  required: ["method", "epoch", "monkeys", "input_seal", "mu", "agents"],
  properties: {
    method: { type: "string", const: REFEREE_METHOD },
    epoch: { type: ["string", "integer"] },
    monkeys: { type: "integer", const: MONKEYS },
    input_seal: { ...hex32Schema, description: "sha256 of the RFC 8785 form of GET …/input" },
    mu: {
      type: "array",
      items: {
        type: "object",
        required: ["pair", "horizon_h", "mu", "slots"],
        properties: {
          pair: { type: "string" },
          horizon_h: uintSchema,
          mu: { type: ["number", "null"] },
          slots: uintSchema,
        },
      },
    },
    agents: {
      type: "array",
      items: {
        type: "object",
        required: [...detailRequired, "pending_calls"],
        properties: { ...detailProperties, pending_calls: uintSchema },
      },
    },
  },
} as const;

const detailSchema = {
  type: "object",
  description: "`augur referee detail --json --monkeys`, plus the counts and a histogram of the monkeys",
  required: [...detailRequired, "pending_calls", "monkeys_below", "monkeys_equal", "monkeys", "histogram"],
  properties: {
    ...detailProperties,
    pending_calls: uintSchema,
    monkeys_below: uintSchema,
    monkeys_equal: uintSchema,
    monkeys: { type: "array", items: number, description: "Σr of monkey 0 … 2047, in monkey order" },
    histogram: {
      type: "object",
      required: ["min", "max", "counts"],
      properties: { min: number, max: number, counts: { type: "array", items: uintSchema } },
    },
  },
} as const;

const inputSchema = {
  type: "object",
  description:
    "The referee's pinned input file for the epoch (packages/scorer/schema/referee-input.schema.json)",
  required: ["epoch", "closes", "predictions"],
  properties: {
    epoch: { type: ["string", "integer"] },
    closes: {
      type: "object",
      additionalProperties: {
        type: "array",
        items: {
          type: "object",
          required: ["at", "close"],
          properties: { at: { type: "string" }, close: number },
        },
      },
    },
    predictions: {
      type: "array",
      items: {
        type: "object",
        required: ["agent", "slot", "pair", "horizon_h", "direction", "size"],
        properties: {
          agent: { type: "string" },
          slot: { type: "string" },
          pair: { type: "string" },
          horizon_h: uintSchema,
          direction: { type: "string", enum: ["up", "down"] },
          size: { type: "number", minimum: 0, maximum: 100 },
        },
      },
    },
  },
} as const;

/**
 * The monkey-percentile referee (referee/v1) of an epoch (a season), computed by the scorer's
 * referee from the cached hourly closes and the season's CallLedger calls. One computation per
 * log size: closes and calls are both sealed into the log, so a log that has not grown means
 * the same input.
 */
export function refereeRoutes(app: FastifyInstance, deps: ApiDeps): void {
  const db = deps.store.db;
  const memo = new LogSizeMemo<RefereeEpoch>();
  const epochOf = async (epoch: string): Promise<RefereeEpoch> => {
    const season = await findSeason(db, epoch);
    if (!season)
      throw new ApiError(
        404,
        "UNKNOWN_EPOCH",
        `season ${epoch} does not exist (a referee epoch is a season id)`,
      );
    return memo.get(db, epoch, () => refereeEpoch(db, season));
  };
  const epochParams = { type: "object", required: ["epoch"], properties: { epoch: epochSchema } } as const;

  app.get(
    "/api/v1/referee/:epoch",
    {
      schema: {
        summary: "The epoch's referee leaderboard (leaderboard.json): every agent and the mu table",
        tags: ["referee"],
        params: epochParams,
        response: { 200: leaderboardSchema, "4xx": errorBody },
      },
    },
    async (request) => (await epochOf((request.params as { epoch: string }).epoch)).leaderboard,
  );

  app.get(
    "/api/v1/referee/:epoch/agents/:id",
    {
      schema: {
        summary: "One agent's referee detail, with its 2,048 monkeys' Σr and their histogram",
        tags: ["referee"],
        params: {
          type: "object",
          required: ["epoch", "id"],
          properties: { epoch: epochSchema, id: idSchema },
        },
        response: { 200: detailSchema, "4xx": errorBody },
      },
    },
    async (request) => {
      const { epoch, id } = request.params as { epoch: string; id: string };
      const result = (await epochOf(epoch)).agents.get(id);
      if (!result)
        throw new ApiError(404, "UNKNOWN_AGENT", `agent ${id} has no scorable call in epoch ${epoch}`);
      return refereeAgentDetail(result);
    },
  );

  app.get(
    "/api/v1/referee/:epoch/input",
    {
      schema: {
        summary: "The epoch's referee input file: recompute with `augur referee leaderboard --input`",
        tags: ["referee"],
        params: epochParams,
        response: { 200: inputSchema, "4xx": errorBody },
      },
    },
    async (request) => (await epochOf((request.params as { epoch: string }).epoch)).input,
  );
}
