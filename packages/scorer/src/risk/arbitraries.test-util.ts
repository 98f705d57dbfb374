// fast-check arbitraries shared by the risk tests (not part of the package's API).
import fc from "fast-check";
import type { HolderIndexPoint, Holding, RiskComponents, VaultInput } from "./types";

const DAY = 86_400;
const START = 1_767_225_600; // 2026-01-01T00:00:00Z

export const share = fc.double({ min: 0, max: 1, noNaN: true });
export const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });

/** A daily holder index starting at 1, from per-day returns in (−100 %, +200 %]. */
export const holderIndex: fc.Arbitrary<HolderIndexPoint[]> = fc
  .array(fc.double({ min: -0.99, max: 2, noNaN: true }), { minLength: 1, maxLength: 60 })
  .map((returns) => {
    let index = 1;
    const points: HolderIndexPoint[] = [{ at: START, index }];
    returns.forEach((r, i) => {
      index *= 1 + r;
      points.push({ at: START + (i + 1) * DAY, index });
    });
    return points;
  });

export const holding: fc.Arbitrary<Holding> = fc.record({
  instrument: fc.constantFrom("TSLA", "AAPL", "NVDA", "AMZN", "HOOD"),
  side: fc.constantFrom("long" as const, "short" as const),
  usd: fc.double({ min: 0, max: 1e7, noNaN: true }),
});

export const vault = (id: string): fc.Arbitrary<VaultInput> =>
  fc
    .record({
      tvl_usd: fc.double({ min: 0, max: 1e9, noNaN: true }),
      holder_index: maybe(holderIndex),
      holdings: maybe(fc.array(holding, { maxLength: 8 })),
      liquidation_cushion: maybe(fc.double({ min: 0, max: 5, noNaN: true })),
      free_share: maybe(share),
      largest_depositor_share: maybe(share),
      days: maybe(fc.tuple(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 400 }))),
    })
    .map(({ days, ...rest }) => ({
      id,
      ...rest,
      days_observed: days ? Math.max(...days) : null,
      days_traded: days ? Math.min(...days) : null,
    }));

export const vaults: fc.Arbitrary<VaultInput[]> = fc
  .integer({ min: 1, max: 12 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => vault(`v${i}`))));

export const components: fc.Arbitrary<RiskComponents> = fc.record({
  worst_fall: maybe(share),
  shared_exposure: maybe(share),
  liquidation: maybe(share),
  exit: maybe(share),
  largest_depositor: maybe(share),
  stopped: maybe(share),
});

/** A vault with every field unknown, to be overridden per test. */
export function blankVault(id: string, fields: Partial<VaultInput> = {}): VaultInput {
  return {
    id,
    tvl_usd: 0,
    holder_index: null,
    holdings: null,
    liquidation_cushion: null,
    free_share: null,
    largest_depositor_share: null,
    days_observed: null,
    days_traded: null,
    ...fields,
  };
}

/** A daily holder index through the given values. */
export function indexOf(values: readonly number[]): HolderIndexPoint[] {
  return values.map((index, i) => ({ at: START + i * DAY, index }));
}
