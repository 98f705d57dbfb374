import { digestHex } from "../digest";
import { InvalidInputError } from "../errors";
import type { Hex32 } from "../hex";
import { MerkleRootBuilder } from "../merkle/root";
import { decimalValue, parseTime } from "./input";
import type { SnapshotSeries } from "./measure";
import { snapshotSealDigest } from "./snapshot-seal";
import { timedInSeason } from "./timed";
import type { SnapshotInput } from "./types";

/** An agent's snapshots inside the season, in time order, reduced to what scoring needs. */
export interface FoldedSnapshots {
  readonly count: number;
  /** RFC 6962 Merkle root over the snapshot seals, in time order. */
  readonly root: Hex32;
  readonly firstSeal: Hex32 | null;
  readonly lastSeal: Hex32 | null;
  /** Time of the first snapshot in ms; NaN when there is none. */
  readonly firstMs: number;
  readonly series: SnapshotSeries;
}

/**
 * The snapshots inside [start, clock], in time order (stable), folded into their Merkle root
 * and numeric series. A row carrying its seal (the engine's stored record seal) goes into the
 * root straight from its hex; any other row is sealed here.
 *
 * Rows nearly always arrive sorted and inside the season (the engine reads them so), and then
 * one pass reads each row once: its time, its seal, its numbers. The pass gives up at the first
 * row out of place, and the rows are put in order first (timedInSeason) and folded again. It
 * gives up on a malformed seal too, so the error names the seal's place in time order, as the
 * ordered fold reports it.
 */
export function foldSnapshots(rows: readonly SnapshotInput[], start: number, clock: number): FoldedSnapshots {
  try {
    const folded = foldInOrder(rows, start, clock);
    if (folded !== null) return folded;
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
  }
  return foldInOrder(timedInSeason(rows, (r) => r.at, start, clock).rows, start, clock)!;
}

/** The fold of rows already in order and inside [start, clock]; null at the first row that is not. */
function foldInOrder(rows: readonly SnapshotInput[], start: number, clock: number): FoldedSnapshots | null {
  const n = rows.length;
  const series = { nav: new Float64Array(n), flow: new Float64Array(n), invested: new Float64Array(n) };
  const root = new MerkleRootBuilder();
  let firstSeal: Hex32 | null = null;
  let lastSeal: Hex32 | null = null;
  let firstMs = NaN;
  let last = start; // each time must be ≥ the one before (and the first ≥ start)
  for (let i = 0; i < n; i++) {
    const row = rows[i]!;
    const ms = parseTime(row.at, "at");
    if (ms < last || ms > clock) return null;
    last = ms;
    if (i === 0) firstMs = ms;
    // Only the ends are kept in hex (the manifest names them); the rest go into the root as bytes.
    const given = row.seal;
    if (given !== undefined) {
      root.addHex(given, "snapshots (seal)");
      if (i === 0) firstSeal = given;
      if (i === n - 1) lastSeal = given;
    } else {
      const digest = snapshotSealDigest(row);
      root.addDigest(digest);
      if (i === 0) firstSeal = digestHex(digest);
      if (i === n - 1) lastSeal = digestHex(digest);
    }
    series.nav[i] = decimalValue(row.nav);
    series.flow[i] = decimalValue(row.flow);
    series.invested[i] = row.invested;
  }
  return { count: n, root: root.root(), firstSeal, lastSeal, firstMs, series };
}
