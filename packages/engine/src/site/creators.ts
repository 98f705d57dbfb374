import type { FastifyInstance } from "fastify";
import { apiGet } from "./api-client";
import { namedAddress } from "./assets";
import type { SafeHtml } from "./html";
import type { CreatorsView } from "../api/routes/creators";

/** Address (lowercase) → the operator's name for that creator, from `GET /api/v1/creators`. */
export type CreatorNames = ReadonlyMap<string, string>;

export async function creatorNames(app: FastifyInstance): Promise<CreatorNames> {
  const { creators } = await apiGet<CreatorsView>(app, "/api/v1/creators");
  return new Map(creators.map((c) => [c.address, c.name]));
}

/** A creator as its name (the address in the tooltip), or the short address when it has none. */
export function creatorText(address: string, names: CreatorNames): SafeHtml {
  return namedAddress(address, names.get(address.toLowerCase()), "creator");
}
