import { sealText } from "@augur/scorer";
import type { Store } from "./open";
import { latestFoldStates, type FoldTable, type StoredScoreState } from "./queries/score-states";

/** An agent's folds are stored again at the latest once the last stored ones are this old. */
export const FOLD_EVERY_SECONDS = 24 * 3600;

/** The agent's hour of the day (UTC, 0–23) for storing its folds: FNV-1a of its id, so the agents spread over the day. */
export function foldHour(agentId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < agentId.length; i++) hash = Math.imul(hash ^ agentId.charCodeAt(i), 0x01000193) >>> 0;
  return hash % 24;
}

/**
 * Whether an agent's fold made at `asOf` (unix s) is stored, given the as-of of its last stored
 * one (null: none). One rule for the score and the risk folds, so both land in the same hour and
 * a restart reads an agent's records from one log size on: a fold never stored is stored; then
 * once a day, in the agent's own hour (`foldHour`), so no hour stores every agent's; and whenever
 * the last stored one is a day old (its hour was missed).
 */
export function foldDue(agentId: string, asOf: number, storedAsOf: number | null): boolean {
  if (storedAsOf === null || asOf - storedAsOf >= FOLD_EVERY_SECONDS) return true;
  return asOf > storedAsOf && Math.floor(asOf / 3600) % 24 === foldHour(agentId);
}

/** What a per-agent fold covers: the log size it was made at and the seal of the leaf below it ("" at 0). */
export interface FoldCover {
  readonly logSize: number;
  readonly leafSeal: string;
}

/**
 * Readies one season's per-agent folds for a read of the log up to `upTo`: drops each fold made
 * beyond it or on another log (the leaf below its size is no longer the one it was made on), and
 * when an agent of `agents` has none, adds its latest stored fold in `table` whose log is the
 * store's and whose text hashes to its stored seal (`fromRow`; undefined: a row it cannot use).
 * Returns the seal of leaf upTo − 1.
 */
export async function readyFolds<F extends FoldCover>(
  store: Pick<Store, "db" | "log">,
  table: FoldTable,
  seasonId: string,
  upTo: number,
  folds: Map<string, F>,
  agents: readonly string[],
  fromRow: (row: StoredScoreState) => F | undefined,
): Promise<string> {
  const leafSeals = new Map<number, string | undefined>();
  const sealAt = async (size: number) => {
    if (!leafSeals.has(size)) leafSeals.set(size, size > 0 ? await store.log.sealAt(store.db, size - 1) : "");
    return leafSeals.get(size);
  };
  const leafSeal = await sealAt(upTo);
  if (leafSeal === undefined) throw new RangeError(`the log has no leaf ${upTo - 1}`);
  for (const [agentId, fold] of folds)
    if (fold.logSize > upTo || (await sealAt(fold.logSize)) !== fold.leafSeal) folds.delete(agentId);
  if (agents.some((a) => !folds.has(a)))
    for (const row of await latestFoldStates(store.db, table, seasonId, upTo)) {
      if (folds.has(row.agent_id) || (await sealAt(row.log_size)) !== row.last_leaf_seal) continue;
      if (sealText(row.state) !== row.state_seal) continue; // not the fold it says it is: rebuild it
      const fold = fromRow(row);
      if (fold !== undefined) folds.set(row.agent_id, fold);
    }
  return leafSeal;
}
