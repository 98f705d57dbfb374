import type { Hex32 } from "@augur/scorer";
import { cacheHourlyCloses, type ClosesSource } from "../closes/cache";
import { appendEngineRecords } from "../records/append";
import { MerkleLogStore } from "../store/merkle/log-store";
import type { Store } from "../store/open";
import { insertAnchor, latestAnchor, type Anchor } from "../store/queries/anchors";
import { evaluateMode, type ModeStepReport, type StewardshipDaysSource } from "../modes/evaluate";
import { isFinalMode } from "../modes/timeline";
import { currentMode } from "../modes/state";
import { seasonClosesAt } from "../store/queries/seasons";
import { AnchorMismatchError } from "./errors";
import { sealOpenSeasonsReferee } from "./referee";
import { sealSeasonRisk } from "./risk";
import { recordStewardshipDays, type StewardshipSource } from "./stewardship";
import { agentInputs, loadSeasonHeader } from "./inputs";
import { seasonRowCache, type SeasonRowCache } from "./season-rows";
import type { AnchorReceipt, Keeper, LogHead, Scorer } from "./seams";

export const CYCLE_SECONDS = 3600;

export interface CycleDeps {
  readonly store: Store;
  /** Absent: heads are computed but not anchored (no chain configured). */
  readonly keeper?: Keeper;
  /** Absent: nothing is scored (the scorer seam is not wired yet). */
  readonly scorer?: Scorer;
  /** True: seal and store every open season's vault risk rows after scoring (`augur cycle`). */
  readonly risk?: boolean;
  /** Present: seal and store the hour's close of every asset it prices, first (the referee's closes). */
  readonly closes?: ClosesSource;
  /** True: seal every open season's referee board from anchored closes and calls (`augur cycle` with closes). */
  readonly referee?: boolean;
  /** The stewardship monitor: seal a daily record for each UTC day closed since the last one. */
  readonly stewardship?: StewardshipSource;
  /**
   * Present: evaluate the mode after scoring (`augur cycle`, `npm start`) from the sealed
   * stewardship days (`days`, or the store's own `stewardship_days` when absent) and the operator
   * notices; see modes/evaluate.ts.
   */
  readonly modes?: { readonly days?: StewardshipDaysSource };
  /**
   * The decoded input rows kept between cycles, so each hour reads only newly anchored records.
   * Default: one cache per open store, for the life of the process (`seasonRowCache`).
   */
  readonly rows?: SeasonRowCache;
  /** Unix seconds. */
  readonly now: () => number;
  readonly progress?: (line: string) => void;
}

export interface CycleReport {
  /** The cycle's hour: scores of this run are stored as of this time. */
  readonly asOf: number;
  readonly head: LogHead;
  /** The newest anchor after the keeper steps (undefined: nothing anchored yet). */
  readonly anchored: { readonly anchorIndex: number; readonly treeSize: number } | undefined;
  /** Seasons scored now; seasons already scored at `asOf` are skipped. */
  readonly scoredSeasons: readonly string[];
  readonly scoreRows: number;
  /** Risk rows sealed now; a season with rows at `asOf` adds none. */
  readonly riskRows: number;
  /** Hourly closes sealed now; an (asset, hour) already cached adds none. */
  readonly closes: number;
  /** Referee boards sealed now; a season with a board at `asOf`, or an unchanged input, adds none. */
  readonly refereeBoards: number;
  /** Stewardship days (YYYY-MM-DD) sealed now; empty when none closed or no monitor. */
  readonly stewardshipDays: readonly string[];
  /** The mode after the mode step (absent when the cycle does not evaluate modes). */
  readonly mode?: ModeStepReport;
}

const log = new MerkleLogStore();

function receiptOf(anchor: Anchor): AnchorReceipt {
  return {
    anchorIndex: anchor.anchor_index,
    treeSize: anchor.tree_size,
    root: anchor.root as Hex32,
    chainId: anchor.chain_id,
    registry: anchor.registry,
    txHash: anchor.tx_hash as Hex32,
    blockNumber: anchor.block_number,
    blockHash: anchor.block_hash as Hex32,
    anchoredAt: anchor.anchored_at,
  };
}

/**
 * One hourly cycle: read the log head → keeper anchors it → score every open season from
 * anchored inputs → seal and append the manifests (they join the next anchor). Every step is
 * idempotent: run twice in the same hour, the second run adds no anchor it already has and no
 * score row; each season's scores are written in one transaction.
 */
export async function runCycle(deps: CycleDeps): Promise<CycleReport> {
  const { store } = deps;
  const db = store.db;
  const say = deps.progress ?? (() => undefined);
  const now = deps.now();
  const asOf = Math.floor(now / CYCLE_SECONDS) * CYCLE_SECONDS;

  // In wind-down and once archived nothing new is sealed or scored: the log only closes (see modes/).
  const frozen = deps.modes ? isFinalMode((await currentMode(db)).mode) : false;
  if (frozen) say("mode: winding down or archived; nothing new is sealed or scored");

  // Closes first: their seals then join the head this very cycle anchors.
  const closes = deps.closes && !frozen ? await cacheCloses(deps, deps.closes, asOf, now) : 0;

  const treeSize = await log.size(db);
  const head: LogHead = { treeSize, root: await log.root(db, treeSize) };
  say(`log head: size ${head.treeSize}, root ${head.root}`);

  let previous = await anchorHead(deps, head, now);

  const scoredSeasons: string[] = [];
  let scoreRows = 0;
  if (deps.scorer && !frozen) {
    const anchoredSize = previous?.tree_size ?? 0;
    const seasons = await db.selectFrom("seasons").selectAll().where("starts_at", "<=", asOf).execute();
    for (const season of seasons) {
      if (asOf > seasonClosesAt(season) + CYCLE_SECONDS) continue; // one last scoring after the close
      const rows = await scoreSeason(deps, deps.scorer, season.id, asOf, anchoredSize, now);
      if (rows === undefined) continue;
      scoredSeasons.push(season.id);
      scoreRows += rows;
      say(`scored season ${season.id}: ${rows} agents as of ${asOf}`);
    }
  } else if (!deps.scorer) {
    say("scorer: not configured; nothing scored");
  }
  const riskRows =
    deps.risk && !frozen ? await sealOpenSeasonsRisk(deps, asOf, previous?.tree_size ?? 0, now) : 0;
  // The whole-season referee runs here, hourly, never in a request: the API serves the sealed board.
  const refereeBoards =
    deps.referee && !frozen ? await sealOpenSeasonsReferee(store, asOf, previous, now, say) : 0;
  // Sealed after the keeper step, like score manifests: the next anchor covers them. Before the
  // mode step, so a day that closed this hour can change the mode this hour.
  const stewardshipDays =
    deps.stewardship && !frozen ? await recordStewardshipDays(store, deps.stewardship, now, say) : [];
  const mode = deps.modes
    ? await evaluateMode({
        store,
        now,
        say,
        ...(deps.modes.days ? { days: deps.modes.days } : {}),
        ...(deps.keeper
          ? {
              anchorHead: async () => {
                const size = await log.size(db);
                return anchorHead(deps, { treeSize: size, root: await log.root(db, size) }, now);
              },
            }
          : {}),
      })
    : undefined;
  if (mode) previous = await latestAnchor(db);
  return {
    asOf,
    head,
    anchored: previous ? { anchorIndex: previous.anchor_index, treeSize: previous.tree_size } : undefined,
    scoredSeasons,
    scoreRows,
    riskRows,
    closes,
    refereeBoards,
    stewardshipDays,
    ...(mode ? { mode } : {}),
  };
}

/**
 * The keeper step: has the keeper anchor `head` unless the newest stored anchor already covers
 * it, records the mined anchor, and returns the newest stored anchor afterwards.
 */
async function anchorHead(deps: CycleDeps, head: LogHead, now: number): Promise<Anchor | undefined> {
  const { store } = deps;
  const say = deps.progress ?? (() => undefined);
  const previous = await latestAnchor(store.db);
  if (deps.keeper && head.treeSize > 0 && (!previous || previous.tree_size < head.treeSize)) {
    const receipt = await deps.keeper.anchor(head, previous ? receiptOf(previous) : undefined);
    if (receipt) {
      if (receipt.treeSize !== head.treeSize || receipt.root !== head.root) {
        say(`keeper: anchored a different head (size ${receipt.treeSize}); recording it as reported`);
      }
      await recordAnchor(store, receipt, now);
      say(
        `keeper: head ${receipt.treeSize} anchored at index ${receipt.anchorIndex}, block ${receipt.blockNumber}`,
      );
    } else {
      say("keeper: head posted, not yet mined with enough confirmations");
    }
    return latestAnchor(store.db);
  }
  say(deps.keeper ? "keeper: head already anchored" : "keeper: not configured; head not anchored");
  return previous;
}

/** The closes step: the hour's close of every priced asset, sealed once; misses are reported, not fatal. */
async function cacheCloses(
  deps: CycleDeps,
  source: ClosesSource,
  asOf: number,
  now: number,
): Promise<number> {
  const say = deps.progress ?? (() => undefined);
  const report = await cacheHourlyCloses(deps.store, source, asOf, now);
  const missed = report.missed.length
    ? `; no price for ${report.missed.length} (${[...new Set(report.missed.map((m) => m.reason))].join(", ")})`
    : "";
  say(`closes: ${report.stored} hourly closes sealed as of ${asOf}${missed}`);
  return report.stored;
}

/** The risk step: every season still scored this hour gets its sealed risk rows once, from anchored records. */
async function sealOpenSeasonsRisk(
  deps: CycleDeps,
  asOf: number,
  anchoredSize: number,
  now: number,
): Promise<number> {
  const say = deps.progress ?? (() => undefined);
  const seasons = await deps.store.db
    .selectFrom("seasons")
    .selectAll()
    .where("starts_at", "<=", asOf)
    .execute();
  let total = 0;
  for (const season of seasons) {
    if (asOf > seasonClosesAt(season) + CYCLE_SECONDS) continue; // same window as scoring
    const rows = await sealSeasonRisk(deps.store, season.id, asOf, anchoredSize, now, rowsOf(deps));
    if (rows === undefined) continue;
    total += rows;
    say(`risk season ${season.id}: ${rows} vault rows sealed as of ${asOf}`);
  }
  return total;
}

function rowsOf(deps: CycleDeps): SeasonRowCache {
  return deps.rows ?? seasonRowCache(deps.store.db);
}

/** Stores a mined anchor once; a receipt already stored (same index and head) is a no-op. */
export async function recordAnchor(store: Store, receipt: AnchorReceipt, now: number): Promise<void> {
  await store.db.transaction().execute(async (trx) => {
    await log.lockForAppend(trx); // one writer at a time, across processes too
    const existing = await trx
      .selectFrom("anchors")
      .select(["anchor_index", "tree_size", "root"])
      .where("anchor_index", "=", receipt.anchorIndex)
      .executeTakeFirst();
    if (existing) {
      if (existing.tree_size !== receipt.treeSize || existing.root !== receipt.root) {
        throw new AnchorMismatchError(receipt.anchorIndex, "already stored with another head");
      }
      return;
    }
    if (receipt.root !== (await log.root(trx, receipt.treeSize))) {
      throw new Error(
        `anchor ${receipt.anchorIndex} root does not match the log at size ${receipt.treeSize}`,
      );
    }
    await insertAnchor(trx, {
      anchor_index: receipt.anchorIndex,
      tree_size: receipt.treeSize,
      root: receipt.root,
      chain_id: receipt.chainId,
      registry: receipt.registry.toLowerCase(),
      tx_hash: receipt.txHash,
      block_number: receipt.blockNumber,
      block_hash: receipt.blockHash,
      anchored_at: receipt.anchoredAt,
      recorded_at: now,
    });
  });
}

/** Scores one season at `asOf` in one transaction; undefined if it was already scored then. */
async function scoreSeason(
  deps: CycleDeps,
  scorer: Scorer,
  seasonId: string,
  asOf: number,
  anchoredSize: number,
  now: number,
): Promise<number | undefined> {
  const db = deps.store.db;
  const done = await db
    .selectFrom("scores")
    .select("agent_id")
    .where("season_id", "=", seasonId)
    .where("as_of", "=", asOf)
    .limit(1)
    .executeTakeFirst();
  if (done) return undefined;
  const header = await loadSeasonHeader(db, seasonId, asOf, anchoredSize);
  if (header.agents.length === 0) return undefined;
  const inputs = await rowsOf(deps).season(seasonId, anchoredSize, asOf);
  deps.progress?.(`inputs of season ${seasonId}: ${inputs.read} records read, ${inputs.held} held`);
  const scoring = scorer.openSeason(header);
  for (const agent of agentInputs(header, inputs.rows)) scoring.scoreAgent(agent);
  const outcomes = scoring.finish();
  return db.transaction().execute(async (trx) => {
    // Re-check under the writer lock: a concurrent cycle may have scored this season meanwhile.
    await log.lockForAppend(trx);
    const raced = await trx
      .selectFrom("scores")
      .select("agent_id")
      .where("season_id", "=", seasonId)
      .where("as_of", "=", asOf)
      .limit(1)
      .executeTakeFirst();
    if (raced) return undefined;
    const stored = await appendEngineRecords(
      trx,
      outcomes.map((o) => ({ kind: "score" as const, agentId: o.agentId, seasonId, body: o.manifest })),
      now,
    );
    const rows = outcomes.map((o, i) => ({
      agent_id: o.agentId,
      season_id: seasonId,
      as_of: asOf,
      formula: o.formula,
      score: o.score,
      reason: o.reason,
      rank: o.rank,
      terms: JSON.stringify(o.terms),
      seal: stored[i]!.seal,
      created_at: now,
    }));
    for (let i = 0; i < rows.length; i += 300)
      await trx
        .insertInto("scores")
        .values(rows.slice(i, i + 300))
        .execute();
    return outcomes.length;
  });
}
