/**
 * Finds the first snapshot row whose agent already has a row at the same time, in one pass and
 * in little memory. Rows usually arrive in time order per agent, and then a time can never repeat
 * an earlier one: only each agent's latest time is kept (10,000 numbers for a 10,000-agent
 * season, where a set of every time held 7.2 million: ≈ 200 MB of peak RSS). The first row that
 * is not later than its agent's latest switches to a set of every time per agent, rebuilt from
 * the rows before it, so the repeat reported is always the first one, whatever the order.
 */
export class RepeatedTimes {
  private readonly latest = new Map<string, number>();
  private sets: Map<string, Set<number>> | null = null;
  private count = 0;

  /** `earlier(j)` gives the agent and time of row j, for any row already added. */
  constructor(private readonly earlier: (j: number) => readonly [agent: string, at: number]) {}

  /** Adds the next row; true if its agent already has a row at this time (it is then not added). */
  repeats(agent: string, at: number): boolean {
    if (this.sets === null) {
      const latest = this.latest.get(agent);
      if (latest === undefined || at > latest) {
        this.latest.set(agent, at);
        this.count += 1;
        return false;
      }
      this.sets = new Map();
      for (let j = 0; j < this.count; j++) {
        const [a, t] = this.earlier(j);
        this.timesOf(a).add(t);
      }
    }
    const times = this.timesOf(agent);
    if (times.has(at)) return true;
    times.add(at);
    this.count += 1;
    return false;
  }

  private timesOf(agent: string): Set<number> {
    let times = this.sets!.get(agent);
    if (!times) this.sets!.set(agent, (times = new Set()));
    return times;
  }
}
