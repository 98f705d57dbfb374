import type { SeasonAgentRecords } from "@augur/scorer/src/augur/season";
import type { SeasonInput } from "@augur/scorer/src/augur/types";

export type ListName = keyof SeasonAgentRecords;
export const LISTS: readonly ListName[] = ["snapshots", "decisions", "trades", "calls"];

/**
 * Where each agent's rows lie in a validated season's lists, read in one pass over the rows: runs
 * of adjacent rows of one agent (usually one run each), so each agent's rows are gathered in input
 * order, as `scoreSeasonAgents` gathers them, without a second copy of every row up front. A
 * recompute across threads reads the season once for this thread's share and the workers'.
 */
export class SeasonIndex {
  private readonly agentOf: ReadonlyMap<string, number>;
  private readonly runs: Record<ListName, { starts: number[][]; ends: number[][] }>;

  constructor(private readonly input: SeasonInput) {
    this.agentOf = new Map(input.agents.map((agent, k) => [agent.id, k]));
    this.runs = {} as typeof this.runs;
    for (const list of LISTS) this.runs[list] = this.runsOf(input[list]);
  }

  /** Agent `id`'s place in the season's agents. */
  agent(id: string): number {
    const k = this.agentOf.get(id);
    if (k === undefined) throw new RangeError(`unknown agent "${id}"`);
    return k;
  }

  /** The id of the season's k-th agent. */
  agentId(k: number): string {
    return this.input.agents[k]!.id;
  }

  /** How many rows of `list` agent k has. */
  count(list: ListName, k: number): number {
    const { starts, ends } = this.runs[list];
    let count = 0;
    starts[k]!.forEach((from, r) => (count += ends[k]![r]! - from));
    return count;
  }

  /** Agent k's rows of `list`, in input order, each given to `each`. */
  forEachRow<L extends ListName>(
    list: L,
    k: number,
    each: (row: SeasonAgentRecords[L][number]) => void,
  ): void {
    const rows = this.input[list] as SeasonAgentRecords[L];
    const { starts, ends } = this.runs[list];
    starts[k]!.forEach((from, r) => {
      for (let i = from; i < ends[k]![r]!; i++) each(rows[i]!);
    });
  }

  /** Agent k's rows of `list`, in input order. */
  rows<L extends ListName>(list: L, k: number): SeasonAgentRecords[L] {
    const own: SeasonAgentRecords[L][number][] = [];
    this.forEachRow(list, k, (row) => own.push(row));
    return own as unknown as SeasonAgentRecords[L];
  }

  /** Agent k's records, every list. */
  records(k: number): SeasonAgentRecords {
    return {
      snapshots: this.rows("snapshots", k),
      decisions: this.rows("decisions", k),
      trades: this.rows("trades", k),
      calls: this.rows("calls", k),
    };
  }

  private runsOf(rows: readonly { readonly agent: string }[]) {
    const starts = Array.from(this.agentOf, (): number[] => []);
    const ends = Array.from(this.agentOf, (): number[] => []);
    for (let from = 0, to = 0; from < rows.length; from = to) {
      const agent = rows[from]!.agent;
      const k = this.agent(agent);
      for (to = from + 1; to < rows.length && rows[to]!.agent === agent; to++);
      starts[k]!.push(from);
      ends[k]!.push(to);
    }
    return { starts, ends };
  }
}
