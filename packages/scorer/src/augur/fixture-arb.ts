// Test helper (not a test file): fast-check arbitraries of agent specs for whole-season properties.
import fc from "fast-check";
import { hoursAfterStart, type AgentSpec } from "./fixture";
import { STYLES } from "./formula";

/** Cents, so NAVs look like books; flows stay within half the NAV either way. */
const nav = fc.integer({ min: 100, max: 100_000_000 }).map((cents) => cents / 100);

export function arbAgentSpec(
  id: string,
  creator: fc.Arbitrary<string> = fc.constantFrom("c1", "c2"),
): fc.Arbitrary<AgentSpec> {
  return fc
    .record({
      creator,
      style: fc.constantFrom(...STYLES),
      active: fc.boolean(),
      navs: fc.array(nav, { minLength: 1, maxLength: 10 }),
      flowShares: fc.array(fc.integer({ min: -50, max: 50 }), { maxLength: 10 }),
      invested: fc.double({ min: 0, max: 1, noNaN: true }),
      ownDecisions: fc.integer({ min: 0, max: 9 }),
      protectiveExits: fc.integer({ min: 0, max: 3 }),
      systemHolds: fc.integer({ min: 0, max: 3 }),
      trades: fc.array(
        fc.record({
          at: fc.integer({ min: 0, max: 9 }).map(hoursAfterStart),
          asset: fc.constantFrom("TSLA", "AAPL"),
          side: fc.constantFrom("buy" as const, "sell" as const),
          quantity: fc.integer({ min: 1, max: 50 }),
          price: fc.integer({ min: 100, max: 30_000 }).map((cents) => cents / 100),
        }),
        { maxLength: 8 },
      ),
      calls: fc.array(
        fc.record({
          resolved_at: fc.integer({ min: 0, max: 9 }).map(hoursAfterStart),
          confidence: fc.integer({ min: 0, max: 100 }).map((p) => p / 100),
          outcome: fc.constantFrom("hit" as const, "miss" as const, "void" as const),
        }),
        { maxLength: 9 },
      ),
    })
    .map(({ flowShares, navs, ...rest }) => ({
      id,
      ...rest,
      navs,
      // A flow is a share of the NAV it arrives with, so NAV − flow stays positive.
      flows: navs.map((n, i) => (i === 0 ? 0 : Math.round((((flowShares[i] ?? 0) * n) / 100) * 100) / 100)),
    }));
}
