/** Bins of the monkey histogram the site draws. */
export const HISTOGRAM_BINS = 24;

export interface RefereeHistogram {
  readonly min: number;
  readonly max: number;
  readonly counts: readonly number[];
}

/** The 2,048 monkey sums counted into equal-width bins (one bin when they are all equal). */
export function histogramOf(values: ArrayLike<number>, bins = HISTOGRAM_BINS): RefereeHistogram {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    min = Math.min(min, values[i]!);
    max = Math.max(max, values[i]!);
  }
  if (values.length === 0) return { min: 0, max: 0, counts: [] };
  const n = max > min ? bins : 1;
  const counts = new Array<number>(n).fill(0);
  for (let i = 0; i < values.length; i++) {
    const at = n === 1 ? 0 : Math.min(n - 1, Math.floor(((values[i]! - min) / (max - min)) * n));
    counts[at]!++;
  }
  return { min, max, counts };
}
