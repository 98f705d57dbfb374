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

/**
 * The pooled total cross-check: every `holdings[].pooled.balance` of the agent's snapshots must be
 * the sum of that stock's balance over every snapshot of the season at the same hour (`season`: all
 * of the season's served snapshots, the agent's own among them). Answers one problem line per
 * mismatch, naming the record; a season snapshot that does not hash to its seal is one too.
 */
export function pooledTotalProblems(own: readonly ServedInput[], season: readonly ServedInput[]): string[] {
  const problems: string[] = [];
  const sums = new Map<string, { total: bigint; count: number }>();
  for (const input of season) {
    const body = measuredSnapshot(input);
    if (!body) continue;
    if (toHex32(sha256(input.body)) !== input.seal) {
      problems.push(`snapshot ${input.seal} (leaf ${input.leafIndex}) does not hash to its seal`);
      continue;
    }
    for (const h of body.holdings) {
      const key = `${body.takenAt}|${h.token}`;
      const sum = sums.get(key) ?? { total: 0n, count: 0 };
      sums.set(key, { total: sum.total + BigInt(h.balance), count: sum.count + 1 });
    }
  }
  for (const input of own) {
    const body = measuredSnapshot(input);
    for (const h of body?.holdings ?? []) {
      if (h.pooled === undefined) continue;
      const sum = sums.get(`${body!.takenAt}|${h.token}`) ?? { total: 0n, count: 0 };
      if (BigInt(h.pooled.balance) !== sum.total)
        problems.push(
          `snapshot ${input.seal} (leaf ${input.leafIndex}) at ${body!.takenAt}: ${h.token} pooled balance ${h.pooled.balance}, ` +
            `but the season's ${sum.count} snapshots at that hour hold ${sum.total}`,
        );
    }
  }
  return problems;
}
