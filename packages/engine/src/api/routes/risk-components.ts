import { RISK_COMPONENTS, riskMethodology, type RiskComponent } from "@augur/scorer";
import type { FastifyInstance } from "fastify";
import type { ApiDeps } from "../deps";
import { ApiError } from "../errors";
import { errorBody, hex32Schema, idSchema, uintSchema } from "../schemas";
import { anchorStatusSchema } from "../views";
import { servedReadings } from "../../risk/served";
import { riskReadingsAt } from "../../store/queries/risk";
import { riskAsOfSchema, servedMethodology } from "./risk";
import { requireSeason } from "./seasons";

const readingSchema = {
  type: "object",
  required: [
    "methodology",
    "vault_id",
    "component",
    "reading",
    "reason",
    "inputs",
    "asOf",
    "seal",
    "leafIndex",
    "anchor",
  ],
  properties: {
    methodology: { type: "string" },
    vault_id: { type: "string" },
    component: { type: "string", enum: [...RISK_COMPONENTS] },
    reading: {
      type: ["number", "null"],
      minimum: 0,
      maximum: 1,
      description: "0–1, 1 the worst; null: unknown",
    },
    reason: { type: ["string", "null"], description: "why the reading is null" },
    inputs: { type: "object", additionalProperties: true, description: "what the reading was read from" },
    asOf: {
      ...uintSchema,
      description:
        "the hour the reading was sealed: stored on change, the latest at or before the hour served",
    },
    seal: { ...hex32Schema, description: "sha256 of the RFC 8785 form of the reading's sealed fields" },
    leafIndex: uintSchema,
    anchor: anchorStatusSchema,
  },
} as const;

const componentResponse = {
  type: "object",
  required: ["methodology", "seasonId", "asOf", "component", "weightBps", "readings"],
  properties: {
    methodology: { type: "string" },
    seasonId: { type: "string" },
    asOf: { type: ["integer", "null"] },
    component: { type: "string" },
    weightBps: { type: ["integer", "null"], minimum: 0 },
    readings: { type: "array", items: readingSchema },
  },
} as const;

/** One component's latest sealed readings of every vault of a season (an empty list before the first). */
async function componentView(deps: ApiDeps, seasonId: string, component: RiskComponent, asOf?: number) {
  await requireSeason(deps, seasonId);
  const { hour, readings: stored } = await riskReadingsAt(deps.store.db, seasonId, asOf, component);
  const readings = servedReadings(stored);
  const methodology = await servedMethodology(deps, readings);
  return {
    methodology,
    seasonId,
    asOf: hour,
    component,
    // The weight of the methodology the readings name; null for one this build does not carry.
    weightBps: riskMethodology(methodology)?.weightsBps[component] ?? null,
    readings,
  };
}

/** What `GET /api/v1/seasons/:id/risk/components/:component` answers. */
export type RiskComponentView = Awaited<ReturnType<typeof componentView>>;

function componentOf(value: string): RiskComponent {
  if (!(RISK_COMPONENTS as readonly string[]).includes(value))
    throw new ApiError(404, "UNKNOWN_COMPONENT", `component must be one of ${RISK_COMPONENTS.join(", ")}`);
  return value as RiskComponent;
}

/**
 * `GET /api/v1/risk/components/:component?season_id=…` and the site's
 * `GET /api/v1/seasons/:id/risk/components/:component`: each risk component published on its own,
 * per vault the reading, why it is null, and the inputs it came from, sealed and anchored.
 */
export function riskComponentRoutes(app: FastifyInstance, deps: ApiDeps): void {
  const component = { type: "string", enum: [...RISK_COMPONENTS] } as const;
  app.get(
    "/api/v1/risk/components/:component",
    {
      schema: {
        summary:
          "One risk component's sealed readings per vault at the latest hour or as_of, with the inputs each came from",
        tags: ["risk"],
        params: { type: "object", required: ["component"], properties: { component } },
        querystring: {
          type: "object",
          additionalProperties: false,
          required: ["season_id"],
          properties: { season_id: idSchema, as_of: riskAsOfSchema },
        },
        response: { 200: componentResponse, "4xx": errorBody },
      },
    },
    async (request) => {
      const { component: c } = request.params as { component: string };
      const { season_id, as_of } = request.query as { season_id: string; as_of?: number };
      const view = await componentView(deps, season_id, componentOf(c), as_of);
      if (view.asOf === null)
        throw new ApiError(
          404,
          "NO_RISK",
          `season ${season_id} has no risk rows${as_of === undefined ? " yet" : ` at or before ${as_of}`}`,
        );
      return view;
    },
  );
  app.get(
    "/api/v1/seasons/:id/risk/components/:component",
    {
      schema: {
        summary: "One risk component's latest sealed readings per vault (the component's page)",
        tags: ["risk"],
        params: {
          type: "object",
          required: ["id", "component"],
          properties: { id: idSchema, component: { type: "string" } },
        },
        response: { 200: componentResponse, "4xx": errorBody },
      },
    },
    (request) => {
      const p = request.params as { id: string; component: string };
      return componentView(deps, p.id, componentOf(p.component));
    },
  );
}
