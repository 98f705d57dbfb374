import {
  formatIsoHour,
  MONKEYS,
  parseRefereeInput,
  refereeLeaderboard,
  type RefereeAgentResult,
} from "@augur/scorer";
import type { CallPoint } from "./record-bodies";

const HOUR = 3600;
export const HISTOGRAM_BINS = 24;

export interface RefereeHistogram {
  readonly min: number;
  readonly max: number;
  readonly counts: readonly number[];
}

export interface RefereeAgentView {
  readonly agent: string;
  readonly status: "proving" | "ranked";
  readonly percentile: number;
  readonly scoredCalls: number;
  readonly pendingCalls: number;
  readonly sumR: number;
  readonly monkeysBelow: number;
  readonly monkeysEqual: number;
  readonly quantiles: RefereeAgentResult["quantiles"];
  readonly histogram: RefereeHistogram;
}

export interface RefereeView {
  readonly method: string;
  readonly epoch: string;
  readonly monkeys: number;
  readonly source: string;
  readonly mu: readonly { pair: string; horizonH: number; mu: number | null; slots: number }[];
  readonly agents: readonly RefereeAgentView[];
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

/**
 * The referee over the season's call records: slot = the reveal hour, horizon = the window in
 * hours (at least 1), size = confidence / 100, and the closes are the entry and exit prices the
 * calls themselves carry (first price seen for an hour wins). Until the engine caches hourly
 * closes for the referee, this is the data it has.
 */
export function refereeView(
  seasonId: string,
  calls: readonly (CallPoint & { agent: string })[],
): RefereeView {
  const closes = new Map<string, Map<number, number>>();
  const setClose = (pair: string, hour: number, price: number | null) => {
    if (price === null || !(price > 0)) return;
    const series = closes.get(pair) ?? new Map<number, number>();
    if (!series.has(hour)) series.set(hour, price);
    closes.set(pair, series);
  };
  const predictions = [];
  for (const c of calls) {
    if (c.outcome === "void") continue;
    const slot = Math.floor(c.revealedAt / HOUR);
    const horizon = Math.max(1, Math.round(c.window / HOUR));
    setClose(c.asset, slot, c.entryPrice);
    if (c.outcome !== "open") setClose(c.asset, slot + horizon, c.exitPrice);
    if (!closes.get(c.asset)?.has(slot)) continue; // no entry price: nothing to measure from
    predictions.push({
      agent: c.agent,
      slot: formatIsoHour(slot),
      pair: c.asset,
      horizon_h: horizon,
      direction: c.direction,
      size: Math.min(100, c.confidenceBps / 100),
    });
  }
  const source = "calls recorded in this season (entry and exit prices of the calls as closes)";
  if (predictions.length === 0)
    return { method: "referee/v1", epoch: seasonId, monkeys: MONKEYS, source, mu: [], agents: [] };
  const input = parseRefereeInput({
    epoch: seasonId,
    closes: Object.fromEntries(
      [...closes].map(([pair, series]) => [
        pair,
        [...series].map(([hour, close]) => ({ at: formatIsoHour(hour), close })),
      ]),
    ),
    predictions,
  });
  const board = refereeLeaderboard(input);
  return {
    method: board.method,
    epoch: seasonId,
    monkeys: board.monkeys,
    source,
    mu: board.mu.map((m) => ({ pair: m.pair, horizonH: m.horizonH, mu: m.mu, slots: m.slots })),
    agents: board.agents.map((a) => ({
      agent: a.agent,
      status: a.status,
      percentile: a.percentile,
      scoredCalls: a.scoredCalls,
      pendingCalls: a.pendingCalls,
      sumR: a.sumR,
      monkeysBelow: a.monkeysBelow,
      monkeysEqual: a.monkeysEqual,
      quantiles: a.quantiles,
      histogram: histogramOf(a.monkeySumsR),
    })),
  };
}
