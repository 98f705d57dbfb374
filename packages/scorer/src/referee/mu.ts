import type { Hour } from "./hours";
import type { ParsedRefereeInput } from "./input";
import { compareCodePoints } from "./code-point-order";

/** mu[pair, h]: the mean raw move over the pair's slot universe for that horizon. */
export interface MuEntry {
  readonly pair: string;
  readonly horizonH: number;
  /** null when no slot of the pair has a close h hours later yet. */
  readonly mu: number | null;
  /** How many slots the universe holds: hours t of closes[pair] with a close at t + h. */
  readonly slots: number;
}

/** raw = close[t + h] / close[t] − 1, in IEEE-754 double arithmetic. */
export function rawMove(closeAtSlot: number, closeAtHorizon: number): number {
  return closeAtHorizon / closeAtSlot - 1;
}

/**
 * The universe of (pair, h) is every hour t present in closes[pair] that also has a close at
 * t + h. mu is the plain left-to-right double sum of their raw moves, t ascending, divided by
 * their count (no compensated summation, so every language gets the same bits).
 */
export function universeMean(
  closes: ReadonlyMap<Hour, number>,
  horizonH: number,
): Pick<MuEntry, "mu" | "slots"> {
  const hours = [...closes.keys()].sort((a, b) => a - b);
  let sum = 0;
  let slots = 0;
  for (const t of hours) {
    const later = closes.get(t + horizonH);
    if (later === undefined) continue;
    sum += rawMove(closes.get(t)!, later);
    slots++;
  }
  return { mu: slots === 0 ? null : sum / slots, slots };
}

/** Keys mu entries by pair, then horizon. */
export type MuTable = ReadonlyMap<string, ReadonlyMap<number, MuEntry>>;

/** mu for every (pair, horizon) some prediction names. */
export function muTable(input: ParsedRefereeInput): MuTable {
  const table = new Map<string, Map<number, MuEntry>>();
  for (const p of input.predictions) {
    let byHorizon = table.get(p.pair);
    if (!byHorizon) table.set(p.pair, (byHorizon = new Map()));
    if (byHorizon.has(p.horizon_h)) continue;
    const entry = universeMean(input.closes.get(p.pair)!, p.horizon_h);
    byHorizon.set(p.horizon_h, { pair: p.pair, horizonH: p.horizon_h, ...entry });
  }
  return table;
}

/** The table as rows sorted by pair (code point order), then horizon. */
export function muRows(table: MuTable): MuEntry[] {
  return [...table.values()]
    .flatMap((byHorizon) => [...byHorizon.values()])
    .sort((a, b) => compareCodePoints(a.pair, b.pair) || a.horizonH - b.horizonH);
}
