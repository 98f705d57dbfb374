/**
 * The LP timelock, read every day (seed 002: "The operator will not withdraw, and will not attempt
 * to circumvent, the LP timelock before its expiry"). The engine reads the lock's expiry and the
 * position it should hold from the chain; this decides whether that reading is a public alarm.
 */

/** One reading of the lock and its position, at one block. Amounts are decimal strings. */
export interface LpLockReading {
  /** The lock contract, lowercase. */
  readonly lock: string;
  /** The Uniswap v3 position manager whose NFT is locked, lowercase. */
  readonly positionManager: string;
  /** The position's token id. */
  readonly position: string;
  /** The lock's expiry, unix seconds. */
  readonly unlockAt: number;
  /** `ownerOf(position)` on the position manager, lowercase. */
  readonly holder: string;
  /** The position's liquidity (uint128). */
  readonly liquidity: string;
  /** The block read at. */
  readonly block: number;
}

/** A reading as sealed in the day's record: the alarm it raised, or null. */
export interface LpLockRecord extends LpLockReading {
  readonly alarm: string | null;
}

/**
 * The alarm a reading raises, or null; `at` is the time of the block it was read at. Before the expiry the position must still be
 * held by the lock, with no less liquidity than the previous day's reading, under the same lock,
 * position and expiry; after the expiry the operator may withdraw and nothing is an alarm.
 */
export function lpLockAlarm(reading: LpLockReading, at: number, previous?: LpLockReading): string | null {
  if (at >= reading.unlockAt) return null;
  if (reading.holder !== reading.lock)
    return `the position ${reading.position} left the lock before its expiry: it is held by ${reading.holder}`;
  if (previous === undefined) return null;
  if (previous.lock !== reading.lock || previous.position !== reading.position)
    return `the monitored lock or position changed before expiry (${previous.lock} #${previous.position} → ${reading.lock} #${reading.position})`;
  if (previous.unlockAt !== reading.unlockAt)
    return `the lock's expiry changed from ${previous.unlockAt} to ${reading.unlockAt}`;
  if (BigInt(reading.liquidity) < BigInt(previous.liquidity))
    return `the position's liquidity fell from ${previous.liquidity} to ${reading.liquidity} before expiry`;
  return null;
}
