/**
 * The off-chain model of a pool's tick accumulator. A Uniswap v3 pool adds `tick × seconds` to
 * tickCumulative for every second its current tick is held, so knowing each state change (the tick
 * after it and when it happened) is enough to predict `observe()` exactly.
 */

/** A change of a pool's price: its initialization (or, on a fork, the state found) or a swap. */
export interface PoolEvent {
  kind: "init" | "attach" | "swap";
  /** Block timestamp of the change, unix seconds. */
  timestamp: number;
  blockNumber: number;
  /** Lets a reader drop events that a snapshot revert (loadFixture) has undone. */
  blockHash: string;
  /** slot0.tick after the change. */
  tick: number;
  /** slot0.sqrtPriceX96 after the change. */
  sqrtPriceX96: bigint;
}

/**
 * tickCumulative gained between `from` and `to` (unix seconds, from <= to) according to `events`
 * (time ordered). The first event must be at or before `from`: before it the model knows nothing.
 * Several events in one second: the last one's tick is the one held from that second on.
 */
export function tickCumulativeDelta(events: readonly PoolEvent[], from: number, to: number): bigint {
  if (to < from) throw new RangeError(`interval ends before it starts: ${from}..${to}`);
  const first = events[0];
  if (first === undefined || first.timestamp > from) {
    throw new RangeError(`no pool event at or before ${from}: the model cannot say which tick was held`);
  }
  let sum = 0n;
  for (let i = 0; i < events.length; i++) {
    const held = events[i]!;
    const start = Math.max(held.timestamp, from);
    const end = Math.min(events[i + 1]?.timestamp ?? Number.MAX_SAFE_INTEGER, to);
    if (end > start) sum += BigInt(held.tick) * BigInt(end - start);
  }
  return sum;
}

/** The tick held at `timestamp` according to `events` (the last change at or before it). */
export function tickAt(events: readonly PoolEvent[], timestamp: number): number {
  let tick: number | undefined;
  for (const event of events) {
    if (event.timestamp > timestamp) break;
    tick = event.tick;
  }
  if (tick === undefined) throw new RangeError(`no pool event at or before ${timestamp}`);
  return tick;
}

/**
 * The arithmetic-mean tick over `[end - window, end]`, rounded toward negative infinity as the
 * PriceOracle specifies (Solidity's division truncates toward zero; the oracle corrects negatives).
 */
export function twapTick(events: readonly PoolEvent[], end: number, window: number): number {
  const delta = tickCumulativeDelta(events, end - window, end);
  const w = BigInt(window);
  let mean = delta / w;
  if (delta < 0n && delta % w !== 0n) mean -= 1n;
  return Number(mean);
}
