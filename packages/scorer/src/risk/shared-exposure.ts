import type { Holding } from "./types";

/** USD held long and short in one instrument. */
export interface SideTotals {
  long: number;
  short: number;
}

/** Every vault's positions summed per instrument: the crowd each vault is read against. */
export type Crowd = ReadonlyMap<string, Readonly<SideTotals>>;

// Float cancellation (crowd − own) can leave dust where nobody else holds anything; dust below
// this fraction of the instrument's total is treated as nobody.
const DUST = 1e-9;

function addHoldings(totals: Map<string, SideTotals>, holdings: readonly Holding[]): void {
  for (const { instrument, side, usd } of holdings) {
    let entry = totals.get(instrument);
    if (entry === undefined) {
      entry = { long: 0, short: 0 };
      totals.set(instrument, entry);
    }
    if (side === "long") entry.long += usd;
    else entry.short += usd;
  }
}

/** Sums the holdings of every vault that reports them (null holdings add nothing). */
export function buildCrowd(vaults: readonly { readonly holdings: readonly Holding[] | null }[]): Crowd {
  const crowd = new Map<string, SideTotals>();
  for (const vault of vaults) if (vault.holdings !== null) addHoldings(crowd, vault.holdings);
  return crowd;
}

/**
 * How one-sided everybody else is in `side` on one instrument: (same − opposite) / (same + opposite)
 * over the other vaults' USD, floored at 0 — a crowd leaning the other way is not this risk.
 */
export function crowdLean(
  side: "long" | "short",
  crowd: Readonly<SideTotals>,
  own: Readonly<SideTotals>,
): number {
  const dust = DUST * (crowd.long + crowd.short);
  let othersLong = crowd.long - own.long;
  let othersShort = crowd.short - own.short;
  if (othersLong <= dust) othersLong = 0;
  if (othersShort <= dust) othersShort = 0;
  const total = othersLong + othersShort;
  if (total === 0) return 0;
  const same = side === "long" ? othersLong : othersShort;
  return Math.max(0, (2 * same - total) / total);
}

/**
 * The vault's holdings weighted by USD, each read as the crowd's lean in the holding's own
 * direction. The vault's own positions are taken out of the crowd first, so a vault alone in an
 * instrument is not crowded by itself. An empty book reads 0; unknown holdings read null.
 */
export function readSharedExposure(holdings: readonly Holding[] | null, crowd: Crowd): number | null {
  if (holdings === null) return null;
  const own = new Map<string, SideTotals>();
  addHoldings(own, holdings);
  let exposure = 0;
  let weighted = 0;
  for (const { instrument, side, usd } of holdings) {
    if (usd === 0) continue;
    const everyone = crowd.get(instrument);
    const mine = own.get(instrument);
    // buildCrowd saw this vault, so both exist; a caller passing a foreign crowd gets 0 lean.
    const lean = everyone && mine ? crowdLean(side, everyone, mine) : 0;
    exposure += usd;
    weighted += usd * lean;
  }
  return exposure > 0 ? Math.min(1, weighted / exposure) : 0;
}
