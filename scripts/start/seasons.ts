import { assertMaySpend, insertSeason, type Season, type Store } from "@augur/engine";

const HOUR = 3600;

/** The demo's n-th season (1-based): `demo`, then `demo-2`, `demo-3`, … */
export function demoSeasonId(n: number): string {
  return n === 1 ? "demo" : `demo-${n}`;
}

/**
 * The demo's seasons, back to back: each lasts `hours` simulated hours and the next opens at its
 * end. The engine stops taking a season's records at its end and scores it one last time in the
 * cycle after (the final, sealed scores), so the demo only has to open the next one in time.
 * Opening a season is new spend (it commits the house agents to it): each one passes the mode
 * guard, as `augur season add` does, so none opens in maintenance or once winding down.
 */
export class DemoSeasons {
  private constructor(
    private readonly db: Store["db"],
    private readonly hours: number,
    private season: Season,
    private number: number,
  ) {}

  /** Opens the first season at the hour `now` falls in. */
  static async open(db: Store["db"], hours: number, now: number): Promise<DemoSeasons> {
    const first = demoSeason(1, Math.floor(now / HOUR) * HOUR, hours, now);
    await assertMaySpend(db, `opening season ${first.id}`);
    await insertSeason(db, first);
    return new DemoSeasons(db, hours, first, 1);
  }

  get current(): Season {
    return this.season;
  }

  /** Whether `now` is inside the current season (its records are still taken). */
  isOpen(now: number): boolean {
    return now < this.season.ends_at;
  }

  /**
   * When the chain's clock has reached the current season's end, opens the seasons after it up
   * to the one `now` falls in, and returns the one that ended; otherwise undefined. Outside active
   * mode the guard refuses (SpendRefusedError) and nothing opens: the ended season stays current.
   */
  async rollOver(now: number): Promise<Season | undefined> {
    const ended = this.season;
    if (now < ended.ends_at) return undefined;
    while (now >= this.season.ends_at) await this.openNext(this.season.ends_at, now);
    return ended;
  }

  private async openNext(startsAt: number, now: number): Promise<void> {
    const next = demoSeason(this.number + 1, startsAt, this.hours, now);
    await assertMaySpend(this.db, `opening season ${next.id}`);
    await insertSeason(this.db, next);
    this.number += 1;
    this.season = next;
  }
}

function demoSeason(n: number, startsAt: number, hours: number, now: number): Season {
  return {
    id: demoSeasonId(n),
    name: `Demo season ${n}`,
    starts_at: startsAt,
    ends_at: startsAt + hours * HOUR,
    closed_at: null,
    created_at: now,
    inputs: "measured", // the engine measures every agent's book from its wallet
  };
}
