import { STEWARDSHIP_V1, type StewardshipConstants } from "./constants";
import {
  chainOrder,
  checkSwaps,
  checkTransfers,
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
  readonly config: StewardshipConfig;
}

export interface DayMeasurementResult {
  readonly holders: number;
  readonly organicVolumeUsd: number;
  readonly excludedVolumeUsd: number;
  /** Every excluded-volume classification, by criterion then cluster. */
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

/** Holders, organic volume and the excluded-volume evidence of one day. */
export function measureDay(
  input: DayInput,
  rules: StewardshipConstants = STEWARDSHIP_V1,
): DayMeasurementResult {
  checkTransfers(input.transfers);
  checkSwaps(input.swaps);
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

  for (const c of fundedClusters(swaps, fundingSources(history, skip), skip, rules)) {
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

  const excluded = new Set(evidence.flatMap((e) => e.swaps));
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
    evidence,
  };
}
