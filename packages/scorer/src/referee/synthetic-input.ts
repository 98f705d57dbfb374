import { formatIsoHour } from "./hours";
import type { Direction, RefereeInput, RefereePrediction } from "./input";

/** mulberry32: a tiny seeded PRNG, so synthetic seasons are the same on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SyntheticSeason {
  readonly seed: number;
  readonly agents: number;
  readonly predictionsPerAgent: number;
  readonly pairs?: number;
  readonly hours?: number;
  readonly horizons?: readonly number[];
  readonly epoch?: string | number;
}

/** A season of random-walk closes and random calls, for tests and the bench. */
export function syntheticSeason(spec: SyntheticSeason): RefereeInput {
  const random = seededRandom(spec.seed);
  const pairs = Array.from({ length: spec.pairs ?? 8 }, (_, i) => `STK${i}/USDG`);
  const hours = spec.hours ?? 720;
  const horizons = spec.horizons ?? [1, 4, 24];
  const start = Date.UTC(2026, 10, 1) / 3_600_000;
  const closes: Record<string, { at: string; close: number }[]> = {};
  for (const pair of pairs) {
    let price = 50 + 200 * random();
    closes[pair] = Array.from({ length: hours }, (_, h) => {
      price *= 1 + (random() - 0.5) * 0.02;
      return { at: formatIsoHour(start + h), close: Math.round(price * 1e6) / 1e6 };
    });
  }
  const predictions: RefereePrediction[] = [];
  for (let a = 0; a < spec.agents; a++) {
    for (let i = 0; i < spec.predictionsPerAgent; i++) {
      const direction: Direction = random() < 0.5 ? "up" : "down";
      predictions.push({
        agent: `agent-${a}`,
        slot: formatIsoHour(start + Math.floor(random() * hours)),
        pair: pairs[Math.floor(random() * pairs.length)]!,
        horizon_h: horizons[Math.floor(random() * horizons.length)]!,
        direction,
        size: Math.round(random() * 100),
      });
    }
  }
  return { epoch: spec.epoch ?? 1, closes, predictions };
}
