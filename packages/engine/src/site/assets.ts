import type { FastifyInstance } from "fastify";
import { apiGet } from "./api-client";
import { shortHex } from "./format";
import { html, type SafeHtml } from "./html";
import type { AssetsView } from "../api/routes/assets";

/** Address (lowercase) → ticker, from the API's asset directory. */
export type AssetNames = ReadonlyMap<string, string>;

export async function assetNames(app: FastifyInstance): Promise<AssetNames> {
  const { assets } = await apiGet<AssetsView>(app, "/api/v1/assets");
  return new Map(assets.map((a) => [a.address, a.ticker]));
}

/** An address by its directory name (the address in the tooltip), or the short address when it has none. */
export function namedAddress(address: string, name: string | undefined, kind: string): SafeHtml {
  return name === undefined
    ? html`<span class="mono" title="${address}">${shortHex(address)}</span>`
    : html`<abbr class="${kind}" title="${address}">${name}</abbr>`;
}

/** An asset as its ticker (the address in the tooltip), or the short address when it has none. */
export function assetText(address: string, names: AssetNames): SafeHtml {
  return namedAddress(address, names.get(address.toLowerCase()), "asset");
}
