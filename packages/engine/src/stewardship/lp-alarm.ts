import type { Kysely } from "kysely";
import type { Database } from "../store/schema";
import { newestStewardshipDays } from "../store/queries/stewardship";

/** The LP timelock's public alarm: the latest sealed reason and the first day of its current run. */
export interface LpLockAlarmView {
  readonly since: string;
  readonly reason: string;
}

const PAGE = 64;

/**
 * The alarm in force, or null: the newest recorded day's sealed `lpLock.alarm`, with the first
 * day of the unbroken run of alarmed days that ends with it. Read newest first, a page at a time,
 * so every page of the site can show it without reading the whole series.
 */
export async function currentLpLockAlarm(db: Kysely<Database>): Promise<LpLockAlarmView | null> {
  let reason: string | undefined;
  let since: string | undefined;
  let before: string | undefined;
  for (;;) {
    const page = await newestStewardshipDays(db, PAGE, before);
    for (const row of page) {
      const alarm = row.body.lpLock?.alarm;
      if (!alarm) return reason && since ? { since, reason } : null;
      reason ??= alarm;
      since = row.day;
    }
    if (page.length < PAGE) return reason && since ? { since, reason } : null;
    before = page.at(-1)!.day;
  }
}
