import { MEASURED_SNAPSHOT_FORMAT, sha256, toHex32 } from "@augur/scorer";
import type { ServedInput } from "./deep-responses";

/** The fields of an `augur-snapshot/v2` body the pooled cross-check reads. */
interface PooledSnapshot {
  readonly format: string;
  readonly takenAt: number;
  readonly holdings: ReadonlyArray<{
    readonly token: string;
    readonly balance: string;
    readonly pooled?: { readonly balance: string };
  }>;
}

const measuredSnapshot = (input: ServedInput): PooledSnapshot | undefined => {
  if (input.kind !== "snapshot") return undefined;
  try {
    const body = JSON.parse(input.body) as PooledSnapshot;
    return body.format === MEASURED_SNAPSHOT_FORMAT && Array.isArray(body.holdings) ? body : undefined;
  } catch {
    return undefined;
  }
};

/** Whether any of `inputs` is a measured snapshot marked by the pooled rule (the cross-check applies). */
export const hasPooledMarks = (inputs: readonly ServedInput[]) =>
  inputs.some((i) => measuredSnapshot(i)?.holdings.some((h) => h.pooled !== undefined));

/** A stock's balance total over some snapshots at one hour, and how many snapshots hold it. */
interface Sum {
  readonly total: bigint;
  readonly count: number;
}
const NO_SUM: Sum = { total: 0n, count: 0 };
const hourStock = (takenAt: number, token: string) => `${takenAt}|${token}`;

/** Some snapshots summed by hour and stock, and a problem line for each that does not hash to its seal. */
interface PooledSums {
  readonly sums: Map<string, Sum>;
  readonly problems: string[];
}

function pooledSums(inputs: readonly ServedInput[]): PooledSums {
  const sums = new Map<string, Sum>();
  const problems: string[] = [];
  for (const input of inputs) {
    const body = measuredSnapshot(input);
    if (!body) continue;
    if (toHex32(sha256(input.body)) !== input.seal) {
      problems.push(`snapshot ${input.seal} (leaf ${input.leafIndex}) does not hash to its seal`);
      continue;
    }
    for (const h of body.holdings) {
      const key = hourStock(body.takenAt, h.token);
      const sum = sums.get(key) ?? NO_SUM;
      sums.set(key, { total: sum.total + BigInt(h.balance), count: sum.count + 1 });
    }
  }
  return { sums, problems };
}

/** A problem line for each pooled balance of `own` that is not `sumAt` its hour and stock. */
function ownProblems(own: readonly ServedInput[], sumAt: (key: string) => Sum): string[] {
  const problems: string[] = [];
  for (const input of own) {
    const body = measuredSnapshot(input);
    for (const h of body?.holdings ?? []) {
      if (h.pooled === undefined) continue;
      const sum = sumAt(hourStock(body!.takenAt, h.token));
      if (BigInt(h.pooled.balance) !== sum.total)
        problems.push(
          `snapshot ${input.seal} (leaf ${input.leafIndex}) at ${body!.takenAt}: ${h.token} pooled balance ${h.pooled.balance}, ` +
            `but the season's ${sum.count} snapshots at that hour hold ${sum.total}`,
        );
    }
  }
  return problems;
}

/**
 * The pooled total cross-check: every `holdings[].pooled.balance` of the agent's snapshots must be
 * the sum of that stock's balance over every snapshot of the season at the same hour (`season`: all
 * of the season's served snapshots, the agent's own among them). Answers one problem line per
 * mismatch, naming the record; a season snapshot that does not hash to its seal is one too.
 */
export function pooledTotalProblems(own: readonly ServedInput[], season: readonly ServedInput[]): string[] {
  const { sums, problems } = pooledSums(season);
  return [...problems, ...ownProblems(own, (key) => sums.get(key) ?? NO_SUM)];
}

/**
 * The season's snapshots summed agent by agent, each agent's fetched and hashed once for every
 * agent one thread checks (`augur verify --deep` over many agents costs the season once, not once
 * per agent), and their total over every agent summed.
 */
export class SeasonPooledSums {
  private readonly byAgent = new Map<string, PooledSums>();
  private readonly total = new Map<string, Sum>();

  /** Whether `agent`'s snapshots are summed already. */
  has(agent: string): boolean {
    return this.byAgent.has(agent);
  }

  /** Sums `agent`'s served inputs into the season's. */
  add(agent: string, inputs: readonly ServedInput[]): void {
    const sums = pooledSums(inputs);
    this.byAgent.set(agent, sums);
    for (const [key, sum] of sums.sums) {
      const total = this.total.get(key) ?? NO_SUM;
      this.total.set(key, { total: total.total + sum.total, count: total.count + sum.count });
    }
  }

  /**
   * `pooledTotalProblems(own, season)` for `agent`, where `season` is `own` followed by the inputs
   * of `others` (every other agent of the season, each added before), in that order; undefined when
   * the agents summed are not exactly these (then the caller sums the season itself).
   */
  problems(agent: string, own: readonly ServedInput[], others: readonly string[]): string[] | undefined {
    if (others.includes(agent) || others.some((other) => !this.byAgent.has(other))) return undefined;
    if (this.byAgent.size !== others.length + (this.byAgent.has(agent) ? 1 : 0)) return undefined;
    const mine = pooledSums(own);
    const cached = this.byAgent.get(agent)?.sums;
    // The total over every agent summed, this agent's as served to `own` rather than as added.
    const sumAt = (key: string): Sum => {
      const total = this.total.get(key) ?? NO_SUM;
      const before = cached?.get(key) ?? NO_SUM;
      const now = mine.sums.get(key) ?? NO_SUM;
      return { total: total.total - before.total + now.total, count: total.count - before.count + now.count };
    };
    return [
      ...mine.problems,
      ...others.flatMap((other) => this.byAgent.get(other)!.problems),
      ...ownProblems(own, sumAt),
    ];
  }
}
