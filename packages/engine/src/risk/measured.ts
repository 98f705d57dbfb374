import type { MeasuredSnapshotBody } from "@augur/records";
import {
  MEASURED_SNAPSHOT_FORMAT,
  pooledShare,
  usdgValue,
  type ComponentSources,
  type VenueFacts,
} from "@augur/scorer";

/** What the chain says of a vault's exit and depositors, and where it said it (or why it did not). */
export interface MeasuredVenue {
  readonly venue: VenueFacts;
  readonly sources: ComponentSources;
}

/** A season whose snapshots the agents declare: nothing of the wallet was read from the chain. */
export const DECLARED_VENUE: MeasuredVenue = {
  venue: {},
  sources: {
    exit: {
      reason: "declared season: the engine did not read the wallet or the pools' depth from the chain",
    },
    largest_depositor: { reason: "declared season: the engine did not read who funded the wallet" },
  },
};

const ratio = (part: bigint, whole: bigint) => Math.min(1, Number((part * 1_000_000_000n) / whole) / 1e9);

type Holding = MeasuredSnapshotBody["holdings"][number];

/**
 * What selling one position would fetch: its own quote, and no more than its pro-rata share of
 * selling every measured position in the pool together where the record carries that (the same
 * pooled share the mark uses: a group of wallets cannot all exit at each one's lone quote).
 */
function exitProceeds(h: Holding & { sellQuote: string }): { proceeds: bigint; pooled: boolean } {
  const own = BigInt(h.sellQuote);
  if (h.pooled === undefined) return { proceeds: own, pooled: false };
  const share = pooledShare(BigInt(h.balance), {
    balance: BigInt(h.pooled.balance),
    sellQuote: BigInt(h.pooled.sellQuote),
  });
  return share < own ? { proceeds: share, pooled: true } : { proceeds: own, pooled: false };
}

/**
 * "Could you get out": the share of the wallet's value (USDG plus each position at the oracle
 * price) that selling every position into its pool would turn into USDG at the last measured
 * block, each position at the least of its own quote and its pooled share. Null, with the reason,
 * where the pools' depth was not read (no quoter) or the wallet is empty.
 */
function exitFact(last: MeasuredSnapshotBody): {
  free_share: number | null;
  source: MeasuredVenue["sources"]["exit"];
} {
  const usdg = BigInt(last.usdg.balance);
  let atOracle = usdg;
  let sold = usdg;
  let pooled = 0;
  for (const h of last.holdings) {
    if (BigInt(h.balance) === 0n) continue;
    if (h.sellQuote === undefined)
      return {
        free_share: null,
        source: { reason: "no quoter configured: the pools' depth for the positions was not read" },
      };
    atOracle += usdgValue(BigInt(h.balance), h.decimals, BigInt(h.price), last.usdgDecimals);
    const exit = exitProceeds({ ...h, sellQuote: h.sellQuote });
    sold += exit.proceeds;
    if (exit.pooled) pooled++;
  }
  const block = { block: last.block.number, blockHash: last.block.hash, snapshotAt: last.takenAt };
  if (atOracle === 0n)
    return { free_share: null, source: { reason: "the wallet is empty at the last reading", source: block } };
  return {
    free_share: ratio(sold, atOracle),
    source: {
      source: {
        ...block,
        usdg: sold.toString(),
        value_at_oracle: atOracle.toString(),
        positions_at_pooled_share: pooled,
      },
    },
  };
}

/**
 * "Largest depositor": net USDG each counterparty paid into the wallet over the measured
 * snapshots (pool swaps are trades, not flows, so they are not in them); the largest positive net
 * over all positive nets. Addresses are not published, only the count and the share.
 */
function depositorFact(bodies: readonly MeasuredSnapshotBody[]) {
  const net = new Map<string, bigint>();
  for (const b of bodies)
    for (const t of b.transfers)
      if (t.token === b.usdg.token)
        net.set(t.counterparty, (net.get(t.counterparty) ?? 0n) + BigInt(t.amount));
  const deposits = [...net.values()].filter((v) => v > 0n);
  const total = deposits.reduce((a, v) => a + v, 0n);
  if (total === 0n)
    return { share: null, source: { reason: "no USDG deposit into the wallet was observed" } };
  const largest = deposits.reduce((a, v) => (v > a ? v : a), 0n);
  return {
    share: ratio(largest, total),
    source: {
      source: { depositors: deposits.length, deposited: total.toString(), snapshots: bodies.length },
    },
  };
}

/** Exit and largest depositor of one agent's wallet from its measured snapshots (time order, up to as-of). */
export function measuredVenue(bodies: readonly MeasuredSnapshotBody[]): MeasuredVenue {
  const measured = bodies.filter((b) => b.format === MEASURED_SNAPSHOT_FORMAT);
  const last = measured[measured.length - 1];
  if (last === undefined)
    return {
      venue: {},
      sources: {
        exit: { reason: "no measured snapshot yet" },
        largest_depositor: { reason: "no measured snapshot yet" },
      },
    };
  const exit = exitFact(last);
  const depositor = depositorFact(measured);
  return {
    venue: { free_share: exit.free_share, largest_depositor_share: depositor.share },
    sources: { exit: exit.source, largest_depositor: depositor.source },
  };
}
