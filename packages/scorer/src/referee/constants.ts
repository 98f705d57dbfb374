/** The methodology these constants pin; bump it with any change to them. */
export const REFEREE_METHOD = "referee/v1";

/** Monkeys in every agent's cohort. */
export const MONKEYS = 2048;

/** An agent with fewer scored calls than this is `proving`; at or above it, `ranked`. */
export const RANKED_FROM_CALLS = 10;

/**
 * Outcomes are summed as exact integers in units of 10⁻¹² of a return, so "equal" in the
 * percentile means equal, in every language and whatever the summation order.
 */
export const OUTCOME_UNITS_PER_RETURN = 1e12;

/** Quantiles of the monkey distribution, as percentages (nearest rank). */
export const QUANTILE_PERCENTS = [1, 5, 10, 25, 50, 75, 90, 95, 99] as const;
