/**
 * Every number of the stewardship rules, in one versioned object. Changing any of them is a new
 * version, published with 14 days' notice and applied only forward.
 */
export const STEWARDSHIP_V1 = {
  version: "stewardship/v1",
  /** A wallet holding fewer whole tokens than this is dust (a genesis constant, never re-priced). */
  dustWholeTokens: 1_000_000n,
  /** Length of every rolling window, in daily measurements (today and the 29 days before). */
  windowDays: 30,
  /** The holder trigger is armed from the first day holders exceed this count. */
  holdersArmAbove: 100,
  /** Net decline, start to end of a window, that fires the holder trigger: 15 % = 1,500 bps. */
  holdersDeclineBps: 1500n,
  /** Organic volume under this many USD a day… */
  volumeFloorUsd: 500,
  /** …for this many consecutive days fires the volume trigger. */
  volumeRunDays: 30,
  /** (b): share of acquired tokens sent back to the pool within `roundTripSeconds`: 80 %. */
  roundTripShareBps: 8000n,
  roundTripSeconds: 86_400,
  /** (b): round trips needed before a taker's volume is excluded. */
  roundTripMinCount: 3,
  /** (c): a funded cluster whose net position change is under 20 % of its gross volume. */
  clusterNetOverGrossBps: 2000n,
  clusterWindowDays: 30,
  /** (a): how long tokens may take to go buyer → intermediary → seller… */
  intermediarySeconds: 86_400,
  /** …through at most this many plain transfers. */
  intermediaryMaxHops: 3,
  /** Length of the day whose organic volume is measured, ending at epoch close. */
  daySeconds: 86_400,
  /** Burn addresses: always excluded, like operator wallets, the LP timelock and vesting. */
  burnAddresses: ["0x0000000000000000000000000000000000000000", "0x000000000000000000000000000000000000dead"],
} as const;

export type StewardshipConstants = typeof STEWARDSHIP_V1;
