import { STEWARDSHIP_V1, type StewardshipConstants } from "./constants";
import {
  chainOrder,
  checkFunding,
  checkSwaps,
  checkTransfers,
  type FundingTransfer,
  type PoolSwap,
  type StewardshipConfig,
  swapId,
  type TokenTransfer,
} from "./chain-data";
import { TransferGraph } from "./clusters";
import type { ClusterEvidence } from "./evidence";
import { fundedClusters, fundingSources } from "./funded-clusters";
import { distinctHolders, notCounted } from "./holders";
import { intermediaryTrades } from "./intermediary";
import { roundTripSwapIds, roundTripTakers } from "./round-trips";

/** Chain data for one epoch close: balances at the close and the events of the lookback window. */
export interface DayInput {
  /** Epoch close, unix seconds: the day measured is [asOf − 24 h, asOf). */
  readonly asOf: number;
  readonly balances: ReadonlyMap<string, bigint>;
  /**
   * Transfers up to asOf, reaching back far enough to show each trader's first funding (the whole
   * history is simplest); the rules other than funding look only at [asOf − 30 d, asOf).
   */
  readonly transfers: readonly TokenTransfer[];
  readonly swaps: readonly PoolSwap[];
  /**
   * Native ETH and other ERC-20 (USDG) transfers up to asOf, as far back as `transfers`: they
   * only tell funding sources apart for (c); absent, funding is traced through the token alone.
   */
  readonly funding?: readonly FundingTransfer[];
  readonly config: StewardshipConfig;
}

export interface DayMeasurementResult {
  readonly holders: number;
  readonly organicVolumeUsd: number;
  readonly excludedVolumeUsd: number;
  /**
   * Every excluded-volume classification, by criterion then cluster; the single wallets a
   * criterion flagged, last for that criterion, in one entry with no address (see `aggregateSingles`).
   */
  readonly evidence: readonly ClusterEvidence[];
}

function evidenceOf(
  criterion: ClusterEvidence["criterion"],
  cluster: string[],
  swaps: Map<string, PoolSwap>,
  ids: Iterable<string>,
  measures: Record<string, string | number>,
): ClusterEvidence {
  const listed = [...new Set(ids)].map((id) => swaps.get(id)!).sort(chainOrder);
  const volumeUsd = listed.reduce((sum, s) => sum + s.usd, 0);
  return { criterion, cluster, swaps: listed.map(swapId), volumeUsd, measures };
}

/**
 * The seed publishes evidence "never as an accusation against an individual address": an entry
 * whose cluster is one wallet (a lone round-tripper) is not published as such. Its swaps still
 * count as excluded volume, but each criterion's single-wallet entries are merged into one
 * entry that names no address: `cluster` empty, the swaps of all of them in chain order, their
 * volume summed, and its measures the number of wallets plus the sum of every numeric measure.
 */
export function aggregateSingles(
  evidence: readonly ClusterEvidence[],
  swaps: Map<string, PoolSwap>,
): ClusterEvidence[] {
  const published: ClusterEvidence[] = [];
  for (const criterion of ["a", "b", "c"] as const) {
    const mine = evidence.filter((e) => e.criterion === criterion);
    published.push(...mine.filter((e) => e.cluster.length >= 2));
    const singles = mine.filter((e) => e.cluster.length < 2);
    if (singles.length === 0) continue;
    const measures: Record<string, number> = { wallets: singles.length };
    for (const e of singles)
      for (const [name, value] of Object.entries(e.measures))
        if (typeof value === "number") measures[name] = (measures[name] ?? 0) + value;
    published.push(
      evidenceOf(
        criterion,
        [],
        swaps,
        singles.flatMap((e) => e.swaps),
        measures,
      ),
    );
  }
  return published;
}

/** Holders, organic volume and the excluded-volume evidence of one day. */
export function measureDay(
  input: DayInput,
  rules: StewardshipConstants = STEWARDSHIP_V1,
): DayMeasurementResult {
  checkTransfers(input.transfers);
  checkSwaps(input.swaps);
  checkFunding(input.funding ?? []);
  const from = input.asOf - rules.clusterWindowDays * rules.daySeconds;
  const inWindow = <T extends { time: number }>(e: T) => e.time >= from && e.time < input.asOf;
  const history = input.transfers.filter((t) => t.time < input.asOf).sort(chainOrder);
  const transfers = history.filter(inWindow);
  const swaps = input.swaps.filter(inWindow).sort(chainOrder);
  const byId = new Map(swaps.map((s) => [swapId(s), s]));
  const skip = notCounted(input.config, rules);
  const graph = new TransferGraph(transfers, skip);
  const evidence: ClusterEvidence[] = [];

  const intermediary = intermediaryTrades(swaps, transfers, skip, rules);
  for (const { cluster, items: mine } of graph.groupBy(intermediary, (t) => t.path)) {
    const ids = mine.flatMap((t) => [t.buy, ...t.sells]).map(swapId);
    evidence.push(evidenceOf("a", cluster, byId, ids, { trades: mine.length }));
  }

  const roundTrips = roundTripTakers(swaps, skip, rules);
  for (const { cluster, items: mine } of graph.groupBy(roundTrips, (r) => [r.taker])) {
    evidence.push(
      evidenceOf("b", cluster, byId, mine.flatMap(roundTripSwapIds), {
        buys: mine.reduce((n, r) => n + r.buys, 0),
        round_trips: mine.reduce((n, r) => n + r.roundTrips.length, 0),
      }),
    );
  }

  const funding = (input.funding ?? []).filter((f) => f.time < input.asOf);
  for (const c of fundedClusters(swaps, fundingSources(history, skip, funding), skip, rules)) {
    const gross = c.bought + c.sold;
    const net = c.bought > c.sold ? c.bought - c.sold : c.sold - c.bought;
    const cluster = [...new Set([c.source, ...c.takers])].sort();
    evidence.push(
      evidenceOf("c", cluster, byId, c.swaps.map(swapId), {
        source: c.source,
        bought: c.bought.toString(),
        sold: c.sold.toString(),
        net: net.toString(),
        gross: gross.toString(),
      }),
    );
  }

  const published = aggregateSingles(evidence, byId);
  const excluded = new Set(published.flatMap((e) => e.swaps));
  let organicVolumeUsd = 0;
  let excludedVolumeUsd = 0;
  for (const s of swaps) {
    if (s.time < input.asOf - rules.daySeconds || skip.has(s.taker)) continue;
    if (excluded.has(swapId(s))) excludedVolumeUsd += s.usd;
    else organicVolumeUsd += s.usd;
  }
  return {
    holders: distinctHolders(input.balances, input.config, rules),
    organicVolumeUsd,
    excludedVolumeUsd,
    evidence: published,
  };
}
