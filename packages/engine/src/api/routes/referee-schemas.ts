import { MONKEYS, QUANTILE_PERCENTS, REFEREE_METHOD } from "@augur/scorer";
import { REFEREE_BOARD_FORMAT } from "../../referee/board";
import { hex32Schema, uintSchema } from "../schemas";
import { anchorStatusSchema } from "../views";

// JSON Schemas of the referee routes: they shape what is served and the OpenAPI document.

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

export const leaderboardSchema = {
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

const histogramSchema = {
  type: "object",
  description: "the 2,048 monkey sums in equal-width bins (one bin when all are equal)",
  required: ["min", "max", "counts"],
  properties: { min: number, max: number, counts: { type: "array", items: uintSchema } },
} as const;

/** Which stored board a detail belongs to, and whether its seal is anchored yet. */
const boardRefSchema = {
  type: "object",
  required: ["asOf", "seal", "leafIndex", "anchor"],
  properties: {
    asOf: { ...uintSchema, description: "the cycle hour the board was computed at, unix seconds" },
    seal: { ...hex32Schema, description: "sha256 of the board's sealed body (RFC 8785)" },
    leafIndex: uintSchema,
    anchor: anchorStatusSchema,
  },
} as const;

export const detailSchema = {
  type: "object",
  description:
    "`augur referee detail --json --monkeys`, plus the counts, a histogram of the monkeys and the board served",
  required: [
    ...detailRequired,
    "pending_calls",
    "monkeys_below",
    "monkeys_equal",
    "monkeys",
    "histogram",
    "board",
  ],
  properties: {
    ...detailProperties,
    pending_calls: uintSchema,
    monkeys_below: uintSchema,
    monkeys_equal: uintSchema,
    monkeys: { type: "array", items: number, description: "Σr of monkey 0 … 2047, in monkey order" },
    histogram: histogramSchema,
    board: boardRefSchema,
  },
} as const;

/** The sealed body of a board (augur-referee-board/v1): every field, so none is dropped when served. */
const boardBodySchema = {
  type: "object",
  required: ["format", "epoch", "asOf", "inputs", "inputSeal", "leaderboard", "cohorts"],
  properties: {
    format: { type: "string", const: REFEREE_BOARD_FORMAT },
    epoch: { type: "string" },
    asOf: uintSchema,
    inputs: {
      type: "object",
      description: "the input file is every close and call whose log leaf is below treeSize (that anchor's)",
      required: ["anchorIndex", "treeSize", "root", "closesFrom", "closesTo", "waitingCalls"],
      properties: {
        anchorIndex: uintSchema,
        treeSize: uintSchema,
        root: hex32Schema,
        closesFrom: uintSchema,
        closesTo: uintSchema,
        waitingCalls: uintSchema,
      },
    },
    inputSeal: hex32Schema,
    leaderboard: leaderboardSchema,
    cohorts: {
      type: "array",
      description: "every agent's monkey counts and histogram, in leaderboard order",
      items: {
        type: "object",
        required: ["agent", "monkeys_below", "monkeys_equal", "histogram"],
        properties: {
          agent: { type: "string" },
          monkeys_below: uintSchema,
          monkeys_equal: uintSchema,
          histogram: histogramSchema,
        },
      },
    },
  },
} as const;

export const boardSchema = {
  type: "object",
  description: "The epoch's latest sealed referee board, as the hourly cycle stored it",
  required: ["epoch", "asOf", "seal", "leafIndex", "anchor", "body"],
  properties: {
    epoch: { type: "string" },
    asOf: uintSchema,
    seal: { ...hex32Schema, description: "sha256 of the RFC 8785 form of body" },
    leafIndex: uintSchema,
    anchor: anchorStatusSchema,
    body: boardBodySchema,
  },
} as const;

export const inputSchema = {
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
