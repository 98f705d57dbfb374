import type { AugurFormula } from "./formula";

/** An agent's snapshots reduced to numbers, in time order (column i = snapshot i). */
export interface SnapshotSeries {
  readonly nav: ArrayLike<number>;
  readonly flow: ArrayLike<number>;
  readonly invested: ArrayLike<number>;
}

export interface ReturnMeasures {
  /** R = Π(1 + r_i) − 1 */
  readonly return: number;
  /** Population standard deviation of the r_i (divides by n). */
  readonly sigma: number;
  /** Deepest fall from a running peak of the return index, as a fraction of the peak. */
  readonly max_drawdown: number;
  /** max(min exposure, mean invested fraction over the snapshots). */
  readonly exposure: number;
}

/**
 * r_i = (NAV_i − flow_i) / NAV_{i−1} − 1 for i ≥ 1, so deposits and withdrawals never count as
 * returns. Only + − × ÷ and sqrt (all correctly rounded in IEEE 754), in a fixed order: the same
 * snapshots give the same bits on any machine.
 */
export function measureReturns(series: SnapshotSeries, formula: AugurFormula): ReturnMeasures {
  const { nav, flow } = series;
  const count = nav.length;
  const n = count - 1;
  const returns = new Float64Array(Math.max(n, 0));
  let index = 1;
  let peak = 1;
  let maxDrawdown = 0;
  let sum = 0;
  for (let i = 1; i <= n; i++) {
    const r = (nav[i]! - flow[i]!) / nav[i - 1]! - 1;
    returns[i - 1] = r;
    sum += r;
    index *= 1 + r;
    if (index > peak) peak = index;
    const drawdown = (peak - index) / peak;
    if (drawdown > maxDrawdown) maxDrawdown = drawdown;
  }
  let sigma = 0;
  if (n > 0) {
    const mean = sum / n;
    let squares = 0;
    for (let i = 0; i < n; i++) squares += (returns[i]! - mean) * (returns[i]! - mean);
    sigma = Math.sqrt(squares / n);
  }
  let invested = 0;
  for (let i = 0; i < count; i++) invested += series.invested[i]!;
  const meanInvested = count > 0 ? invested / count : 0;
  return {
    return: index - 1,
    sigma,
    max_drawdown: maxDrawdown,
    exposure: Math.max(formula.constants.min_exposure, meanInvested),
  };
}

export interface ResolvedCall {
  readonly confidence: number;
  readonly hit: boolean;
}

export interface CalibrationMeasures {
  /** Resolved calls (hits and misses; voids count as nothing). */
  readonly calibration_calls: number;
  /** Mean of (confidence − hit)² over resolved calls; null below the minimum count. */
  readonly brier: number | null;
}

export function measureCalibration(
  calls: readonly ResolvedCall[],
  formula: AugurFormula,
): CalibrationMeasures {
  if (calls.length < formula.constants.min_resolved_calls)
    return { calibration_calls: calls.length, brier: null };
  let sum = 0;
  for (const call of calls) {
    const miss = call.confidence - (call.hit ? 1 : 0);
    sum += miss * miss;
  }
  return { calibration_calls: calls.length, brier: sum / calls.length };
}

/** (as-of time − first snapshot in the season) / 86,400 s, fractional. */
export function daysCompeting(firstSnapshotMs: number, clockMs: number, formula: AugurFormula): number {
  return Math.max(0, clockMs - firstSnapshotMs) / 1000 / formula.constants.seconds_per_day;
}
