import { canonicalJson, type Hex32, seal } from "@augur/scorer";

/** Seconds in the referee's slot: closes are cached on the hour, every hour. */
export const HOUR_SECONDS = 3600;

const WAD = 10n ** 18n;

/**
 * The sealed body of one hourly close: which oracle said what about which asset at which hour.
 * `price18` is exactly what `priceAt(asset, at)` returned (USDG per whole token, 18 decimals), so
 * anyone with an archive node can re-read it; the referee's `close` is derived from it.
 */
export interface CloseRecordBody {
  readonly format: "augur-close/v1";
  readonly chainId: number;
  /** The PriceOracle, lowercase. */
  readonly oracle: string;
  /** The stock token, lowercase: the referee's pair key. */
  readonly asset: string;
  /** The hour, unix seconds (a multiple of 3600): the end of the TWAP window. */
  readonly at: number;
  readonly price18: string;
  /** The oracle's TWAP window in seconds: the close is the mean over `[at - twapWindow, at]`. */
  readonly twapWindow: number;
}

/** One close ready to store: its body, sealed text and seal. */
export interface SealedClose {
  readonly body: CloseRecordBody;
  readonly text: string;
  readonly seal: Hex32;
  /** price18 as the referee reads it (see `closeOf`). */
  readonly close: number;
}

/**
 * price18 / 10¹⁸ as the nearest double: the exact decimal text parsed once (one rounding, the
 * same in every language), never `Number(price18) / 1e18` (two roundings).
 */
export function closeOf(price18: bigint): number {
  const whole = price18 / WAD;
  const fraction = (price18 % WAD).toString().padStart(18, "0");
  return Number(`${whole}.${fraction}`);
}

/** Builds and seals the record of `priceAt(asset, at) = price18`. */
export function sealClose(
  fields: Omit<CloseRecordBody, "format" | "price18"> & { price18: bigint },
): SealedClose {
  const body: CloseRecordBody = {
    format: "augur-close/v1",
    chainId: fields.chainId,
    oracle: fields.oracle.toLowerCase(),
    asset: fields.asset.toLowerCase(),
    at: fields.at,
    price18: fields.price18.toString(),
    twapWindow: fields.twapWindow,
  };
  return { body, text: canonicalJson(body), seal: seal(body), close: closeOf(fields.price18) };
}
