import {
  applyTransfers,
  canonicalJson,
  chainOrder,
  lpLockAlarm,
  type LpLockReading,
  measureDay,
  NATIVE_ASSET,
  seal,
  STEWARDSHIP_V1,
  stewardshipStates,
  type DailyMeasurement,
} from "@augur/scorer";
import type { Store } from "../store/open";
import {
  hasStewardshipDay,
  insertStewardshipDay,
  latestStewardshipDay,
  listStewardshipDays,
  stewardshipSwapsBefore,
  stewardshipTransfersBefore,
  type StewardshipDayBody,
} from "../store/queries/stewardship";
import { fundingTransfers, poolSwaps, tokenTransfers, type MonitoredPool } from "./chain-data";
import { StewardshipScopeError } from "./errors";

const DAY = 86_400;
/** What is monitored: the token, its pools, the excluded addresses, and the first day measured. */
export interface StewardshipScope {
  readonly chainId: number;
  readonly token: string;
  /** USDG, whose stored transfers show who funded a trader (criterion (c)); absent, only the token's do. */
  readonly usd?: string;
  readonly decimals: number;
  readonly pools: readonly MonitoredPool[];
  /** Operator wallets, LP timelock, vesting contract: lowercase, sorted. */
  readonly excluded: readonly string[];
  /** Days since 1970-01-01 of the start block: the first day recorded. */
  readonly firstDay: number;
}

export interface StewardshipSync {
  /** The newest block every follower has read that is under the confirmations. */
  readonly finalBlock: number;
  /** Its timestamp: every event before this time is stored and final. */
  readonly finalThrough: number;
  /** Events stored by this sync. */
  readonly stored: number;
}

/** The chain side of the monitor (stewardship/monitor.ts), behind a seam so the cycle needs no RPC. */
export interface StewardshipSource {
  readonly scope: StewardshipScope;
  /** Reads the chain up to its head and says up to when the stored events are final. */
  sync(): Promise<StewardshipSync>;
  /** When an LP timelock is configured: its reading at a block. */
  lpLock?(block: number): Promise<LpLockReading>;
}

/** `YYYY-MM-DD` of a day number. */
export const dateOf = (day: number): string => new Date(day * DAY * 1000).toISOString().slice(0, 10);
const dayNumberOf = (date: string): number => Date.parse(`${date}T00:00:00Z`) / (DAY * 1000);

/**
 * The daily step: syncs the chain, then seals one stewardship record for every UTC day that has
 * closed since the last record — closed meaning its midnight is both past `now` and under the
 * confirmed chain — oldest first, each in its own transaction with the log's writer lock, so a
 * day is written once and never edited (a concurrent cycle that got there first ends the run).
 * Returns the days recorded now. `closeBy` (default `now`) records only days ending by then: the
 * cycle's stewardship step passes the last second before a formula's effective time.
 */
export async function recordStewardshipDays(
  store: Store,
  source: StewardshipSource,
  now: number,
  progress: (line: string) => void = () => undefined,
  closeBy: number = now,
): Promise<string[]> {
  const db = store.db;
  const { scope } = source;
  const synced = await source.sync();
  const last = await latestStewardshipDay(db);
  if (last && (last.chain_id !== scope.chainId || last.token !== scope.token)) {
    throw new StewardshipScopeError(last.token, last.chain_id, scope.token, scope.chainId);
  }
  const closeLimit = Math.min(now, closeBy, synced.finalThrough);
  let next = last ? dayNumberOf(last.day) + 1 : scope.firstDay;
  if ((next + 1) * DAY > closeLimit) {
    progress(`stewardship: no day closed (next ${dateOf(next)}, final through block ${synced.finalBlock})`);
    return [];
  }
  const lastAsOf = Math.floor(closeLimit / DAY) * DAY;

  const storedTransfers = await stewardshipTransfersBefore(db, scope.chainId, scope.token, lastAsOf);
  const pools = new Map(scope.pools.map((p) => [p.address, p]));
  const transfers = tokenTransfers(storedTransfers).sort(chainOrder);
  const swaps = poolSwaps(
    await stewardshipSwapsBefore(db, scope.chainId, [...pools.keys()], lastAsOf),
    storedTransfers,
    pools,
  );
  // Funding sources (criterion (c)): USDG's transfers and native ETH's, beside the token's.
  const funding = [
    ...(scope.usd
      ? fundingTransfers(scope.usd, await stewardshipTransfersBefore(db, scope.chainId, scope.usd, lastAsOf))
      : []),
    ...fundingTransfers(
      NATIVE_ASSET,
      await stewardshipTransfersBefore(db, scope.chainId, NATIVE_ASSET, lastAsOf),
    ),
  ];
  const config = { decimals: scope.decimals, pools: [...pools.keys()].sort(), excluded: scope.excluded };
  const series: DailyMeasurement[] = (await listStewardshipDays(db)).map((d) => ({
    day: d.day,
    holders: d.body.holders,
    organicVolumeUsd: d.body.organicVolumeUsd,
  }));

  // The LP timelock is read once a pass, at the newest final block, and judged at that block's
  // time (a withdrawal after expiry is no alarm, even while older days are caught up).
  const lpReading = source.lpLock ? await source.lpLock(synced.finalBlock) : undefined;
  let lpPrevious: LpLockReading | undefined = (await listStewardshipDays(db)).at(-1)?.body.lpLock;

  const recorded: string[] = [];
  let balances = new Map<string, bigint>();
  let applied = 0;
  for (; (next + 1) * DAY <= closeLimit; next++) {
    const asOf = (next + 1) * DAY;
    const day = dateOf(next);
    let upTo = applied;
    while (upTo < transfers.length && transfers[upTo]!.time < asOf) upTo++;
    balances = applyTransfers(balances, transfers.slice(applied, upTo));
    applied = upTo;

    const measured = measureDay({ asOf, balances, transfers, swaps, funding, config });
    series.push({ day, holders: measured.holders, organicVolumeUsd: measured.organicVolumeUsd });
    const state = stewardshipStates(series).at(-1)!;
    const body: StewardshipDayBody = {
      ...state,
      version: STEWARDSHIP_V1.version,
      asOf,
      excludedVolumeUsd: measured.excludedVolumeUsd,
      evidence: measured.evidence,
      chainId: scope.chainId,
      token: scope.token,
      pools: config.pools,
      excluded: [...scope.excluded],
      ...(lpReading
        ? { lpLock: { ...lpReading, alarm: lpLockAlarm(lpReading, synced.finalThrough, lpPrevious) } }
        : {}),
    };
    lpPrevious = lpReading ?? lpPrevious;
    const text = canonicalJson(body);
    const daySeal = seal(body);
    const written = await db.transaction().execute(async (trx) => {
      await store.log.lockForAppend(trx);
      if (await hasStewardshipDay(trx, day)) return false; // a concurrent cycle wrote it
      const leafIndex = await store.log.append(trx, [daySeal], now);
      await insertStewardshipDay(trx, {
        day,
        as_of: asOf,
        chain_id: scope.chainId,
        token: scope.token,
        state: state.state,
        through_block: synced.finalBlock,
        body: text,
        seal: daySeal,
        leaf_index: leafIndex,
        created_at: now,
      });
      return true;
    });
    if (!written) break;
    recorded.push(day);
    progress(
      `stewardship ${day}: ${state.holders} holders, organic $${state.organicVolumeUsd.toFixed(2)}, ` +
        `excluded $${measured.excludedVolumeUsd.toFixed(2)} (${measured.evidence.length} clusters), ${state.state}`,
    );
  }
  return recorded;
}
