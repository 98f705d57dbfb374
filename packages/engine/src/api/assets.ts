import type { ApiDeps } from "./deps";
import { ApiError } from "./errors";

/** A ticker as routes accept it in place of an asset address ("META", "BRK.B"). */
export const TICKER_PATTERN = "^[A-Z][A-Z0-9.]{0,9}$";
/** An asset parameter: a 0x address or a ticker of the directory. */
export const assetParamSchema = {
  type: "string",
  pattern: `^(0x[0-9a-fA-F]{40}|[A-Z][A-Z0-9.]{0,9})$`,
  description: "the asset's token address, or its ticker as `GET /api/v1/assets` lists it",
} as const;

/** The configured directory, ticker → lowercase address, sorted by ticker. */
export function assetDirectory(deps: ApiDeps): { ticker: string; address: string }[] {
  return Object.entries(deps.assets ?? {})
    .map(([ticker, address]) => ({ ticker, address: address.toLowerCase() }))
    .sort((a, b) => (a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : 0));
}

/** The address an asset parameter names: an address as is (lowercased), a ticker through the directory. */
export function resolveAsset(deps: ApiDeps, asset: string): string {
  if (asset.startsWith("0x")) return asset.toLowerCase();
  const address = deps.assets?.[asset];
  if (address === undefined) {
    const known = assetDirectory(deps).map((a) => a.ticker);
    throw new ApiError(
      404,
      "UNKNOWN_ASSET",
      `no asset has the ticker ${asset}${known.length ? `: known tickers are ${known.join(", ")}` : " (no ticker is configured)"}`,
    );
  }
  return address.toLowerCase();
}

/** The ticker of an address, or null when the directory does not list it. */
export function tickerOf(deps: ApiDeps, address: string): string | null {
  const lower = address.toLowerCase();
  return assetDirectory(deps).find((a) => a.address === lower)?.ticker ?? null;
}
