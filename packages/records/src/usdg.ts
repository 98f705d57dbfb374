/**
 * USDG amounts as stored, read in USDG. Each record states its own unit: a measured snapshot
 * (augur-snapshot/v2) carries the token's `usdgDecimals` as read from the chain (deployments
 * disagree between 6 and 18); an agent-signed `Snapshot` (v1) is in the protocol's unit, 6
 * decimals, whatever the token's own. Conversions are exact: bigint and decimal strings.
 */
import { formatUnits } from "ethers";

/** The unit a signed `Snapshot` (v1) states NAV and flow in: 10^-6 USDG, a protocol unit. */
export const SNAPSHOT_V1_USDG_DECIMALS = 6;

/** The decimals a stored snapshot message's NAV and flow are in: its own `usdgDecimals`, else v1's unit. */
export function usdgDecimalsOf(message: Readonly<Record<string, unknown>>): number {
  const d = message.usdgDecimals;
  if (d === undefined) return SNAPSHOT_V1_USDG_DECIMALS;
  if (typeof d !== "number" || !Number.isInteger(d) || d < 0 || d > 77)
    throw new RangeError(`usdgDecimals ${String(d)} is not an integer in [0, 77]`);
  return d;
}

/** `amount` base units at `decimals` as the exact decimal string of USDG (any length). */
export function usdgDecimal(amount: string, decimals: number): string {
  return formatUnits(amount, decimals);
}

// Up to 15 digits an integer and 10^decimals (≤ 22) are exact doubles, so their quotient is
// the exactly rounded decimal, and its shortest form is the decimal itself.
const SHORT_INTEGER = /^-?\d{1,15}$/;
const INTEGER = /^-?\d+$/;

/** Whether `usdgNumber` of `amount` prints as its exact decimal (so the number alone can stand for it). */
export function usdgNumberIsExact(amount: unknown, decimals: number): boolean {
  return typeof amount === "string" && SHORT_INTEGER.test(amount) && decimals <= 22;
}

/** `amount` base units at `decimals` as the nearest double of its USDG value. */
export function usdgNumber(amount: unknown, decimals: number): number {
  if (usdgNumberIsExact(amount, decimals)) return Number(amount) / 10 ** decimals;
  // Longer integers: parse the exact decimal (one rounding), not a rounded integer divided.
  if (typeof amount === "string" && INTEGER.test(amount)) return Number(usdgDecimal(amount, decimals));
  return Number(amount) / 10 ** decimals;
}
