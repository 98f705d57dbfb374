import type { Hex32 } from "@augur/scorer";
import type { Store } from "../store/open";
import { cachedHours, insertCloses, lastCloseHour } from "../store/queries/closes";
import { HOUR_SECONDS, type SealedClose, sealClose } from "./record";

/**
 * What the oracle answered for one (asset, hour): a price, or why it has none. `earlierToo`
 * says no earlier hour can have a price either (nothing pushed yet, or the pool's buffer ends
 * after it), so a backfill stops there instead of asking about every older hour.
 */
export type PriceReading =
  | { readonly price18: bigint }
  | { readonly missing: string; readonly earlierToo?: boolean };

/** Where hourly closes come from: the PriceOracle on chain (`OracleCloses`) or a test double. */
export interface ClosesSource {
  readonly chainId: number;
  /** The oracle's address, lowercase. */
  readonly oracle: string;
  /** The oracle's TWAP window in seconds. */
  twapWindow(): Promise<number>;
  /** Every asset the oracle prices now (lowercase addresses, sorted). */
  pairs(): Promise<readonly string[]>;
  /** `priceAt(asset, at)`; a price the oracle cannot give (not covered, stale, future) is `missing`. */
  priceAt(asset: string, at: number): Promise<PriceReading>;
}

/**
 * How far back a cycle fills hours it missed (the engine was down, the node was behind): a day.
 * Older hours are usually past the pools' observation buffers anyway.
 */
export const BACKFILL_HOURS = 24;

export interface MissedClose {
  readonly asset: string;
  readonly at: number;
  readonly reason: string;
}

export interface CloseCacheReport {
  /** Closes sealed and stored by this call. */
  readonly stored: number;
  /** Hours the oracle had no price for (they are not retried once a later hour is cached). */
  readonly missed: readonly MissedClose[];
}

/** The hours a cycle at `asOf` reads for one asset: after its last close, at most a day back. */
export function hoursToRead(asOf: number, last: number | undefined): number[] {
  const first = Math.max(
    last === undefined ? -Infinity : last + HOUR_SECONDS,
    asOf - BACKFILL_HOURS * HOUR_SECONDS,
  );
  const hours: number[] = [];
  for (let at = first; at <= asOf; at += HOUR_SECONDS) hours.push(at);
  return hours;
}

/**
 * Reads the close of every priced asset at the cycle's hour `asOf` with `priceAt(asset, asOf)`
 * (so a late cycle still records the close of the right hour), plus hours missed since the
 * asset's last close (up to `BACKFILL_HOURS`, newest first, until the oracle's history ends). Each close is sealed, stored once per (asset,
 * hour) and its seal appended to the Merkle log, so the next anchor covers it. Idempotent: a
 * second run in the same hour reads and stores nothing.
 */
export async function cacheHourlyCloses(
  store: Store,
  source: ClosesSource,
  asOf: number,
  now: number,
): Promise<CloseCacheReport> {
  if (asOf % HOUR_SECONDS !== 0) throw new RangeError(`asOf ${asOf} is not on the hour`);
  const db = store.db;
  const missed: MissedClose[] = [];
  const read: SealedClose[] = [];
  const pairs = await source.pairs();
  const twapWindow = pairs.length > 0 ? await source.twapWindow() : 0;
  for (const asset of pairs) {
    // Newest first: an hour the oracle can no longer cover ends the backfill of older ones.
    for (const at of hoursToRead(asOf, await lastCloseHour(db, asset)).reverse()) {
      const reading = await source.priceAt(asset, at);
      if ("missing" in reading || reading.price18 <= 0n) {
        // The referee divides by closes: a zero price is no close (the oracle never returns one).
        missed.push({ asset, at, reason: "missing" in reading ? reading.missing : "zero price" });
        if ("missing" in reading && reading.earlierToo) break;
        continue;
      }
      read.push(
        sealClose({
          chainId: source.chainId,
          oracle: source.oracle,
          asset,
          at,
          price18: reading.price18,
          twapWindow,
        }),
      );
    }
  }
  return { stored: await storeSealedCloses(store, read, now), missed };
}

/**
 * Stores sealed closes and appends their seals to the log, in one transaction under the log's
 * writer lock; an (asset, hour) already stored is skipped. Returns how many were new.
 */
export async function storeSealedCloses(
  store: Store,
  closes: readonly SealedClose[],
  now: number,
): Promise<number> {
  if (closes.length === 0) return 0;
  return store.db.transaction().execute(async (trx) => {
    await store.log.lockForAppend(trx);
    // Checked under the writer lock: a concurrent cycle may have cached some of these meanwhile.
    const fresh: SealedClose[] = [];
    for (const asset of new Set(closes.map((c) => c.body.asset))) {
      const mine = closes.filter((c) => c.body.asset === asset);
      const done = await cachedHours(
        trx,
        asset,
        mine.map((c) => c.body.at),
      );
      fresh.push(...mine.filter((c) => !done.has(c.body.at)));
    }
    if (fresh.length === 0) return 0;
    const first = await store.log.append(
      trx,
      fresh.map((c) => c.seal as Hex32),
      now,
    );
    await insertCloses(
      trx,
      fresh.map((c, i) => ({
        asset: c.body.asset,
        at: c.body.at,
        chain_id: c.body.chainId,
        oracle: c.body.oracle,
        price18: c.body.price18,
        close: c.close,
        body: c.text,
        seal: c.seal,
        leaf_index: first + i,
        created_at: now,
      })),
    );
    return fresh.length;
  });
}
