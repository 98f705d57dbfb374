import { QUANTILE_PERCENTS } from "./constants";

/** How many monkeys scored below and equal to the agent, and the resulting percentile. */
export interface PercentileTally {
  readonly below: number;
  readonly equal: number;
  /** 100 × (below + ½ × equal) / monkeys; exact in doubles for up to 2²⁴ monkeys. */
  readonly percentile: number;
}

/** Compares exact integer sums (doubles below 2⁵³ or bigints): equal means equal. */
export function percentileOf<T extends number | bigint>(
  agentSum: T,
  monkeySums: ArrayLike<T>,
): PercentileTally {
  let below = 0;
  let equal = 0;
  for (let m = 0; m < monkeySums.length; m++) {
    const s = monkeySums[m]!;
    if (s < agentSum) below++;
    else if (s === agentSum) equal++;
  }
  const percentile = ((2 * below + equal) * 100) / (2 * monkeySums.length);
  return { below, equal, percentile };
}

export type QuantileKey = "min" | `p${(typeof QUANTILE_PERCENTS)[number]}` | "max";
export type Quantiles = Readonly<Record<QuantileKey, number>>;

/** min, p1 … p99, max of a distribution; p is the nearest-rank value sorted[⌈p × N / 100⌉ − 1]. */
export function nearestRankQuantiles(values: ArrayLike<number>): Quantiles {
  if (values.length === 0) throw new RangeError("quantiles of an empty distribution");
  const sorted = Float64Array.from(values).sort();
  const out: Record<string, number> = { min: sorted[0]! };
  for (const p of QUANTILE_PERCENTS) out[`p${p}`] = sorted[Math.ceil((p * sorted.length) / 100) - 1]!;
  out.max = sorted[sorted.length - 1]!;
  return out as Quantiles;
}
