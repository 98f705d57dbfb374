import { parseTime } from "./input";

/** Rows in time order (stable) with their parsed times. */
export interface Timed<T> {
  readonly rows: readonly T[];
  readonly ms: Float64Array;
}

/**
 * The rows inside [start, clock], in time order (stable), with their times. Most inputs arrive
 * whole and sorted, so the rows array itself is returned when nothing is dropped or moved.
 */
export function timedInSeason<T>(
  rows: readonly T[],
  at: (row: T) => string,
  start: number,
  clock: number,
): Timed<T> {
  const all = new Float64Array(rows.length);
  let kept = 0;
  let sorted = true;
  let last = -Infinity;
  for (let i = 0; i < rows.length; i++) {
    const ms = parseTime(at(rows[i]!), "at");
    all[i] = ms;
    if (ms < start || ms > clock) continue;
    if (ms < last) sorted = false;
    last = ms;
    kept += 1;
  }
  if (kept === rows.length && sorted) return { rows, ms: all };
  const order: number[] = [];
  for (let i = 0; i < rows.length; i++) if (all[i]! >= start && all[i]! <= clock) order.push(i);
  if (!sorted) order.sort((a, b) => all[a]! - all[b]! || a - b);
  return { rows: order.map((i) => rows[i]!), ms: Float64Array.from(order, (i) => all[i]!) };
}
