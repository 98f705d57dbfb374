import {
  advanceRiskFold,
  emptyRiskFold,
  parseRiskFoldText,
  riskFoldText,
  riskFoldVault,
  sealText,
  type RiskFold,
  type RiskSnapshot,
  type RiskTrade,
  type VaultSummary,
  type VenueFacts,
} from "@augur/scorer";
import { tradePointOf } from "@augur/records";
import type { AgentRecords } from "../store/agent-records";
import { foldDue, readyFolds, type FoldCover } from "../store/folds";
import type { Store } from "../store/open";
import type { NewScoreState } from "../store/queries/score-states";

/** One agent's risk fold and what it covers. */
interface AgentFold extends FoldCover {
  readonly fold: RiskFold;
  /** The agent's snapshots and trades (log order, counted from its first) the fold has seen, folded or held. */
  readonly snapshotsSeen: number;
  readonly tradesSeen: number;
  /** The as-of hour of the last fold of this agent stored (null: none yet). */
  readonly storedAsOf: number | null;
  /** The as-of hour it last folded a record due by then, or was built at. */
  readonly changedAt: number;
}

/** What `consumed` holds in a stored risk_states row. */
interface StoredCoverage {
  readonly snapshotsSeen: number;
  readonly tradesSeen: number;
}

/** How the vaults of the last season prepared were derived. */
export interface RiskFoldCounts {
  /** From the agent's fold, advanced by its new records only. */
  advanced: number;
  /** From a fold built from all its records (no usable fold). */
  rebuilt: number;
  /** From the whole book (`deriveVaultInput`): records no fold can take. */
  fromScratch: number;
}

function newRecords(records: AgentRecords, snapshotsFrom: number, tradesFrom: number) {
  const s = records.snapshots;
  const snapshots: RiskSnapshot[] = [];
  for (let i = snapshotsFrom; i < s.length; i++)
    snapshots.push({ at: s.at[i]!, nav: s.nav[i]!, flow: s.flow[i]!, invested: s.invested[i]! });
  const trades: RiskTrade[] = records.trades.slice(tradesFrom).map((t) => tradePointOf(t));
  return { snapshots, trades };
}

/**
 * The risk step's per-agent folds (packages/scorer risk/fold.ts), one per agent and season,
 * advanced each hour by the agent's records anchored since, so a vault is not derived from its
 * whole book every hour. Kept in memory between hours and stored in the append-only table
 * risk_states (when due, on the score folds' rule `foldDue`, in the risk step's transaction), so a restarted
 * process reads them. A fold is used only while the log leaf below it is still the store's; an
 * agent whose new records no fold can take is derived from its whole book, as before.
 */
export class RiskFolds {
  private readonly seasons = new Map<
    string,
    { upTo: number; leafSeal: string; asOf: number; folds: Map<string, AgentFold> }
  >();
  counts: RiskFoldCounts = { advanced: 0, rebuilt: 0, fromScratch: 0 };

  /** Readies the season's folds for the records below `upTo` (reads stored ones for agents without one). */
  async prepare(
    store: Pick<Store, "db" | "log">,
    seasonId: string,
    upTo: number,
    asOf: number,
    agents: readonly string[],
  ): Promise<void> {
    for (const [id, season] of this.seasons)
      if (id !== seasonId && season.asOf < asOf - 2 * 3600) this.seasons.delete(id);
    const folds = this.seasons.get(seasonId)?.folds ?? new Map<string, AgentFold>();
    const leafSeal = await readyFolds(store, "risk_states", seasonId, upTo, folds, agents, (row) => {
      const coverage = JSON.parse(row.consumed) as StoredCoverage;
      return {
        fold: parseRiskFoldText(row.state),
        snapshotsSeen: coverage.snapshotsSeen,
        tradesSeen: coverage.tradesSeen,
        logSize: row.log_size,
        leafSeal: row.last_leaf_seal,
        storedAsOf: Number(row.created_at),
        changedAt: Infinity, // not known: counts as changed at the hour it is next advanced to
      };
    });
    this.seasons.set(seasonId, { upTo, leafSeal, asOf, folds });
    this.counts = { advanced: 0, rebuilt: 0, fromScratch: 0 };
  }

  /**
   * The agent's vault at `asOf` from its fold advanced by `records` after the ones it saw, or
   * undefined when no fold can take them: the caller derives it from the whole book.
   */
  vault(
    seasonId: string,
    agentId: string,
    records: AgentRecords,
    asOf: number,
    venue: VenueFacts,
  ): VaultSummary | undefined {
    return this.advance(seasonId, agentId, records, asOf)
      ? this.vaultOf(seasonId, agentId, venue)
      : undefined;
  }

  /**
   * Advances the agent's fold to `asOf` by `records` after the ones it saw (rebuilds it from all
   * of them when it cannot); false when no fold can take them: the caller reads the agent's whole
   * history when `records` start late (not `complete`) and asks again, else derives the vault
   * from the whole book.
   */
  advance(seasonId: string, agentId: string, records: AgentRecords, asOf: number): boolean {
    const season = this.prepared(seasonId);
    const prior = season.folds.get(agentId);
    const cover = { logSize: season.upTo, leafSeal: season.leafSeal };
    let next = prior && advance(prior, records, asOf, cover);
    // Rows that start after the agent's first: the caller reads its whole history and asks again.
    if (!next && !records.complete) return false;
    if (next) this.counts.advanced += 1;
    else if ((next = advance(undefined, records, asOf, cover))) this.counts.rebuilt += 1;
    if (!next) {
      season.folds.delete(agentId);
      this.counts.fromScratch += 1;
      records.claim("risk", { snapshots: 0, trades: 0 });
      return false;
    }
    season.folds.set(agentId, next);
    records.claim("risk", { snapshots: next.snapshotsSeen, trades: next.tradesSeen });
    return true;
  }

  /** The vault of the agent's advanced fold. */
  vaultOf(seasonId: string, agentId: string, venue: VenueFacts): VaultSummary {
    const fold = this.prepared(seasonId).folds.get(agentId);
    if (fold === undefined) throw new RangeError(`agent ${agentId} has no risk fold`);
    return riskFoldVault(fold.fold, agentId, venue);
  }

  /**
   * Whether the agent's fold, advanced to this hour, folded nothing after `hour`: no snapshot or
   * trade that feeds risk came due since, so its vault differs from the one at `hour` only by
   * what depends on the hour itself (the day count).
   */
  unchangedSince(seasonId: string, agentId: string, hour: number): boolean {
    const fold = this.seasons.get(seasonId)?.folds.get(agentId);
    return fold !== undefined && fold.changedAt <= hour;
  }

  private prepared(seasonId: string) {
    const season = this.seasons.get(seasonId);
    if (season === undefined) throw new RangeError(`risk folds of season ${seasonId} are not prepared`);
    return season;
  }

  /** The folds of the season to store now: each agent's when due (`foldDue`; the fold in memory is kept either way). */
  stateRows(seasonId: string, asOf: number, createdAt: number): NewScoreState[] {
    const season = this.seasons.get(seasonId);
    if (season === undefined) return [];
    const rows: NewScoreState[] = [];
    for (const [agentId, f] of season.folds) {
      if (f.logSize !== season.upTo) continue;
      if (!foldDue(agentId, asOf, f.storedAsOf)) continue;
      let text: string;
      try {
        text = riskFoldText(f.fold);
      } catch (error) {
        if (error instanceof RangeError) continue; // kept in memory only: a restart rebuilds it
        throw error;
      }
      const coverage: StoredCoverage = { snapshotsSeen: f.snapshotsSeen, tradesSeen: f.tradesSeen };
      rows.push({
        agent_id: agentId,
        season_id: seasonId,
        log_size: f.logSize,
        last_leaf_seal: f.leafSeal,
        consumed: JSON.stringify(coverage),
        state: text,
        state_seal: sealText(text),
        created_at: createdAt,
      });
      season.folds.set(agentId, { ...f, storedAsOf: asOf });
    }
    return rows;
  }
}

/** The agent's fold advanced by its records after `prior` (all of them without one), or undefined. */
function advance(
  prior: AgentFold | undefined,
  records: AgentRecords,
  asOf: number,
  cover: FoldCover,
): AgentFold | undefined {
  const snapshotsSeen = prior?.snapshotsSeen ?? 0;
  const tradesSeen = prior?.tradesSeen ?? 0;
  // The lists may start after the agent's first records (`base`): those before must have been seen.
  const base = records.base;
  if (base === null || base.snapshots > snapshotsSeen || base.trades > tradesSeen) return undefined;
  const { snapshots: snapshotTotal, trades: tradeTotal } = records.totals();
  // Fewer records than seen: not the log the fold was made on.
  if (snapshotTotal < snapshotsSeen || tradeTotal < tradesSeen) return undefined;
  if (prior && prior.fold.asOf === asOf && snapshotTotal === snapshotsSeen && tradeTotal === tradesSeen)
    return { ...prior, ...cover };
  const { snapshots, trades } = newRecords(records, snapshotsSeen - base.snapshots, tradesSeen - base.trades);
  const fold = advanceRiskFold(prior?.fold ?? emptyRiskFold(), snapshots, trades, asOf);
  if (fold === undefined) return undefined;
  // Records due by asOf folded now: a snapshot counted, or a held or new trade no longer held.
  const due =
    prior === undefined ||
    fold.points > prior.fold.points ||
    prior.fold.heldTrades.length + trades.length > fold.heldTrades.length;
  return {
    fold,
    snapshotsSeen: snapshotTotal,
    tradesSeen: tradeTotal,
    ...cover,
    storedAsOf: prior?.storedAsOf ?? null,
    // A read-back fold's unknown (Infinity) counts as changed now.
    changedAt: due ? asOf : Math.min(prior.changedAt, asOf),
  };
}

const perStore = new WeakMap<object, RiskFolds>();

/** The process's risk folds of this store (they live as long as the store is open). */
export function riskFolds(store: Pick<Store, "db">): RiskFolds {
  let folds = perStore.get(store.db);
  if (!folds) perStore.set(store.db, (folds = new RiskFolds()));
  return folds;
}
