import { RISK_COMPONENTS } from "@augur/scorer";
import type { FastifyInstance } from "fastify";
import { ApiError } from "../errors";
import type { ApiDeps } from "../deps";
import { errorBody, hex32Schema, idSchema, uintSchema } from "../schemas";
import { anchorStatusSchema } from "../views";
import { RISK_FORMULAS } from "../../cycle/formulas";
import { formulaAt } from "../../modes/formulas";
import { servedRiskRows } from "../../risk/served";
import { orderRiskRows, RISK_ORDER_KEYS, type RiskOrder, type RiskOrderKey } from "../../risk/order";
import { riskRowsAt } from "../../store/queries/risk";
import { findSeason } from "../../store/queries/seasons";
import { requireSeason, seasonParams } from "./seasons";

const reading = { type: ["number", "null"], minimum: 0, maximum: 1 } as const;
const share = { type: ["number", "null"], minimum: 0, maximum: 1 } as const;

const rowSchema = {
  type: "object",
  required: [
    "methodology",
    "vault_id",
    "score",
    "measurable_share",
    "components",
    "reason",
    "asOf",
    "seal",
    "anchor",
  ],
  properties: {
    methodology: { type: "string" },
    vault_id: { type: "string" },
    score: { type: ["number", "null"], description: "0–100, higher is worse; null below 50 % measurable" },
    measurable_share: { type: "number", minimum: 0, maximum: 1 },
    components: {
      type: "object",
      required: [...RISK_COMPONENTS],
      properties: Object.fromEntries(RISK_COMPONENTS.map((k) => [k, reading])),
    },
    reason: { type: ["string", "null"] },
    asOf: {
      ...uintSchema,
      description: "the hour the row was sealed: stored on change, the latest at or before the hour served",
    },
    seal: { ...hex32Schema, description: "sha256 of the RFC 8785 form of the row's sealed fields" },
    leafIndex: uintSchema,
    anchor: anchorStatusSchema,
  },
} as const;

const riskResponse = {
  type: "object",
  required: ["methodology", "seasonId", "asOf", "sort", "order", "rows", "coverage"],
  properties: {
    methodology: { type: "string" },
    seasonId: { type: "string" },
    asOf: uintSchema,
    sort: { type: "string" },
    order: { type: "string" },
    rows: { type: "array", items: rowSchema },
    coverage: {
      type: "object",
      required: ["capital_share", "vault_share", "unscored"],
      properties: { capital_share: share, vault_share: share, unscored: uintSchema },
    },
  },
} as const;

/** `as_of`: the hour asked for; each vault's reading of it is its latest stored at or before it. */
export const riskAsOfSchema = {
  ...uintSchema,
  description:
    "unix seconds: the readings of that hour (each vault's latest stored at or before it); default the latest hour",
} as const;

/**
 * The methodology served rows were computed by, as they name it (one hour's rows share one
 * version); before the first row, the version in force now. Never a constant: the formula
 * registry switches versions by effective date.
 */
export async function servedMethodology(
  deps: ApiDeps,
  rows: readonly { readonly methodology: string }[],
): Promise<string> {
  return rows[0]?.methodology ?? (await formulaAt(deps.store.db, RISK_FORMULAS, deps.now())).id;
}

/** `GET /api/v1/risk`: the season's latest sealed vault risk rows, as the hourly cycle stored them. */
export function riskRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get(
    "/api/v1/risk",
    {
      schema: {
        summary:
          "The sealed vault risk rows of a season at its latest hour or as_of (each names its methodology), sorted by any component",
        tags: ["risk"],
        querystring: {
          type: "object",
          additionalProperties: false,
          required: ["season_id"],
          properties: {
            season_id: idSchema,
            sort: { type: "string", enum: [...RISK_ORDER_KEYS], default: "score" },
            order: { type: "string", enum: ["asc", "desc"], default: "desc" },
            as_of: riskAsOfSchema,
          },
        },
        response: { 200: riskResponse, "4xx": errorBody },
      },
    },
    async (request) => {
      const q = request.query as { season_id: string; sort: RiskOrderKey; order: RiskOrder; as_of?: number };
      const db = deps.store.db;
      const { hour, rows: stored } = await riskRowsAt(db, q.season_id, q.as_of);
      if (hour === null || stored.length === 0) {
        if (!(await findSeason(db, q.season_id)))
          throw new ApiError(404, "UNKNOWN_SEASON", `season ${q.season_id} does not exist`);
        throw new ApiError(
          404,
          "NO_RISK",
          `season ${q.season_id} has no risk rows${q.as_of === undefined ? " yet" : ` at or before ${q.as_of}`}`,
        );
      }
      const { rows, coverage } = servedRiskRows(stored);
      return {
        methodology: await servedMethodology(deps, rows),
        seasonId: q.season_id,
        asOf: hour,
        sort: q.sort,
        order: q.order,
        rows: orderRiskRows(rows, q.sort, q.order),
        coverage,
      };
    },
  );
}

/** The season's latest sealed risk rows, unsorted (the risk page sorts them itself). */
async function seasonRiskView(deps: ApiDeps, id: string) {
  await requireSeason(deps, id);
  // The rows the hourly cycle sealed and stored: one source of truth with GET /api/v1/risk.
  const { hour, rows: stored } = await riskRowsAt(deps.store.db, id);
  const served = servedRiskRows(stored);
  return {
    methodology: await servedMethodology(deps, served.rows),
    seasonId: id,
    asOf: hour,
    ...served,
  };
}

/** What `GET /api/v1/seasons/:id/risk` answers. */
export type SeasonRiskView = Awaited<ReturnType<typeof seasonRiskView>>;

/** `GET /api/v1/seasons/:id/risk`: the rows behind the risk page, an empty list before the first. */
export function seasonRiskRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get(
    "/api/v1/seasons/:id/risk",
    {
      schema: {
        summary: "The latest sealed vault risk rows of the season (each names its methodology), unsorted",
        tags: ["risk"],
        params: seasonParams,
        response: { "4xx": errorBody },
      },
    },
    (request) => seasonRiskView(deps, (request.params as { id: string }).id),
  );
}
