import { seal, stewardshipStates, type Hex32 } from "@augur/scorer";
import { addDays } from "../../src/modes/days";
import type { StewardshipDay } from "../../src/modes/timeline";
import { MODE_FORMAT, type ModeBody } from "../../src/modes/records";
import { appendModeRecord } from "../../src/store/queries/modes";
import type { Store } from "../../src/store/open";

/** The first day of every scripted stewardship history in the tests. */
export const HISTORY_START = "2027-01-01";

/**
 * Sealed daily stewardship records from scripted measurements, produced the way the engine's
 * stewardship step will: the scorer's `stewardshipStates`, each day's state sealed with `seal()`.
 */
export function scriptedDays(
  series: readonly { readonly holders: number; readonly organicVolumeUsd: number }[],
  start = HISTORY_START,
): StewardshipDay[] {
  const states = stewardshipStates(series.map((m, i) => ({ day: addDays(start, i), ...m })));
  return states.map((body) => ({
    day: body.day,
    seal: seal({ format: "stewardship-day/test", ...body }) as Hex32,
    body,
  }));
}

/**
 * The reference history of the mode tests (75 days from 2027-01-01, holders armed at 200):
 * organic volume $1,000 a day until day 9, then $100 → the volume trigger fires on day 39
 * (maintenance); $1,000 on day 45 (volume recovered → active), $100 after; from day 56
 * holders fall by 2 a day → the holder trigger fires on day 70 (200 → 170, −15 %): wind-down.
 */
export function referenceHistory(days = 75): { holders: number; organicVolumeUsd: number }[] {
  return Array.from({ length: days }, (_, d) => ({
    holders: d <= 55 ? 200 : 200 - 2 * (d - 55),
    organicVolumeUsd: d <= 9 || d === 45 ? 1000 : 100,
  }));
}

/** Day index → date of the reference history. */
export const dayN = (n: number): string => addDays(HISTORY_START, n);

/**
 * Every page of the site (site/register.ts), as the archive tests visit them: the season-scoped
 * pages for `season` and the agent page of `agent`. One list, so a new page is checked everywhere.
 */
export function sitePages(season: string, agent: string): string[] {
  return [
    "/",
    `/?season=${season}`,
    `/agents/${agent}?season=${season}`,
    "/consensus",
    `/referee?season=${season}`,
    `/risk?season=${season}`,
    "/stewardship",
    "/methodology",
    "/mode",
    "/receipt",
  ];
}

/** Puts the store in wind-down (a holder trigger since `since`) with one mode record, as the cycle would. */
export async function declareWindDown(store: Pick<Store, "db">, since: string, now: number): Promise<void> {
  const cause = { kind: "trigger", trigger: "holders", day: since, seal: `0x${"ab".repeat(32)}` } as const;
  const body: ModeBody = {
    format: MODE_FORMAT,
    mode: "wind-down",
    since,
    declared: since,
    cause,
    previous: null,
  };
  await store.db
    .transaction()
    .execute((trx) => appendModeRecord(trx, { kind: "mode", day: since, body }, now));
}
