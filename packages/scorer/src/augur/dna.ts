import type { AugurFormula, DnaFeatureName, FeatureRegion, Style } from "./formula";

/** One trade reduced to what DNA needs, in time order. */
export interface TradePoint {
  readonly atMs: number;
  readonly asset: string;
  readonly buy: boolean;
  readonly quantity: number;
  readonly price: number;
}

/** augur-dna/v1: a feature is null when the record holds nothing to measure it from. */
export type DnaFeatures = Readonly<Record<DnaFeatureName, number | null>>;

export const MS_PER_HOUR = 3_600_000;

/**
 * Measures the DNA vector from the agent's own decisions and its trades:
 * - trades_per_day, decisions_per_day: counts / days competing;
 * - holding_hours: mean time from a trade to the next opposite-side trade in the same asset;
 * - directional_bias: (buy notional − sell notional) / total notional, in [−1, 1];
 * - prior_move_alignment: mean of side × sign(price − previous trade price of the asset), over
 *   trades whose asset moved since its previous trade; +1 buys strength, −1 buys weakness.
 */
export function measureDna(ownDecisions: number, trades: readonly TradePoint[], days: number): DnaFeatures {
  let buyNotional = 0;
  let sellNotional = 0;
  let alignmentSum = 0;
  let alignmentCount = 0;
  const lastPrice = new Map<string, number>();
  for (const trade of trades) {
    const notional = trade.quantity * trade.price;
    if (trade.buy) buyNotional += notional;
    else sellNotional += notional;
    const previous = lastPrice.get(trade.asset);
    if (previous !== undefined && trade.price !== previous) {
      const moveUp = trade.price > previous;
      alignmentSum += moveUp === trade.buy ? 1 : -1;
      alignmentCount += 1;
    }
    lastPrice.set(trade.asset, trade.price);
  }

  // Walk backwards remembering the next buy and next sell time of each asset.
  let holdSum = 0;
  let holdCount = 0;
  const nextBuy = new Map<string, number>();
  const nextSell = new Map<string, number>();
  for (let i = trades.length - 1; i >= 0; i--) {
    const trade = trades[i]!;
    const closing = (trade.buy ? nextSell : nextBuy).get(trade.asset);
    if (closing !== undefined) {
      holdSum += (closing - trade.atMs) / MS_PER_HOUR;
      holdCount += 1;
    }
    (trade.buy ? nextBuy : nextSell).set(trade.asset, trade.atMs);
  }

  const total = buyNotional + sellNotional;
  return {
    trades_per_day: days > 0 ? trades.length / days : null,
    decisions_per_day: days > 0 ? ownDecisions / days : null,
    holding_hours: holdCount > 0 ? holdSum / holdCount : null,
    directional_bias: total > 0 ? (buyNotional - sellNotional) / total : null,
    prior_move_alignment: alignmentCount > 0 ? alignmentSum / alignmentCount : null,
  };
}

/** 1 inside [min, max]; falls linearly to 0 at `width` beyond the nearer bound. */
export function regionFit(value: number, region: FeatureRegion): number {
  let distance = 0;
  if (region.min !== null && value < region.min) distance = region.min - value;
  else if (region.max !== null && value > region.max) distance = value - region.max;
  const fit = 1 - distance / region.width;
  return fit < 0 ? 0 : fit;
}

/**
 * match ∈ [0, 1] = mean fit of the style's regions over the features that could be measured.
 * Discretionary, fewer than 5 own decisions, or nothing measurable: 1 (nothing to test).
 */
export function strategyMatch(
  features: DnaFeatures,
  style: Style,
  ownDecisions: number,
  formula: AugurFormula,
): number {
  if (ownDecisions < formula.dna.min_decisions_for_match) return 1;
  const regions: readonly FeatureRegion[] = formula.dna.styles[style];
  let sum = 0;
  let count = 0;
  for (const region of regions) {
    const value = features[region.feature];
    if (value === null) continue;
    sum += regionFit(value, region);
    count += 1;
  }
  return count === 0 ? 1 : sum / count;
}
