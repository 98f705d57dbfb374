import {
  RISK_COMPONENTS,
  summariseCoverage,
  type ComponentReading,
  type RiskCoverage,
  type RiskRow,
} from "@augur/scorer";
import type { ScoreAnchorColumns } from "../store/queries/scores";
import type { StoredRiskReading, StoredRiskRow } from "../store/queries/risk";

type Anchor = Record<string, unknown> & { status: "pending" | "anchored" };

/** A sealed row's anchor status as served: pending, or the first anchor covering its leaf. */
function anchorOf(r: ScoreAnchorColumns): Anchor {
  return r.anchor_index === null
    ? { status: "pending" }
    : {
        status: "anchored",
        anchorIndex: r.anchor_index,
        treeSize: r.tree_size,
        root: r.root,
        chainId: r.chain_id,
        registry: r.registry,
        txHash: r.tx_hash,
        blockNumber: r.block_number,
        blockHash: r.block_hash,
        anchoredAt: r.anchored_at,
      };
}

export type ServedReading = ComponentReading & {
  methodology: string;
  /** The hour the reading was sealed and stored: the latest at or before the hour served. */
  asOf: number;
  seal: string;
  leafIndex: number;
  anchor: Anchor;
};

/**
 * Stored component readings as served, each from its sealed text (what a client hashes is what
 * was sealed) with its seal and anchor; per vault in the fixed component order.
 */
export function servedReadings(
  stored: ReadonlyArray<StoredRiskReading & ScoreAnchorColumns>,
): ServedReading[] {
  const order = (c: string) => RISK_COMPONENTS.indexOf(c as (typeof RISK_COMPONENTS)[number]);
  return [...stored]
    .sort((a, b) =>
      a.vault_id < b.vault_id ? -1 : a.vault_id > b.vault_id ? 1 : order(a.component) - order(b.component),
    )
    .map((r) => ({
      ...(JSON.parse(r.body) as ComponentReading & { methodology: string }),
      asOf: Number(r.as_of),
      seal: r.seal,
      leafIndex: r.leaf_index,
      anchor: anchorOf(r),
    }));
}

export type ServedRiskRow = RiskRow & {
  methodology: string;
  /** The hour the row was sealed and stored: the latest at or before the hour served. */
  asOf: number;
  seal: string;
  leafIndex: number;
  anchor: Anchor;
};

/**
 * Stored risk rows as served (by `GET /api/v1/risk` and the site's view alike): each row from its
 * sealed text, so what a client hashes is what was sealed, with its seal and anchor status; the
 * coverage weighted by each vault's stored capital (the scorer's summary reads only tvl_usd).
 */
export function servedRiskRows(stored: ReadonlyArray<StoredRiskRow & ScoreAnchorColumns>): {
  rows: ServedRiskRow[];
  coverage: RiskCoverage;
} {
  const rows = stored.map((r): ServedRiskRow => {
    const sealed = JSON.parse(r.body) as RiskRow & { methodology: string };
    return {
      ...sealed,
      asOf: Number(r.as_of),
      seal: r.seal,
      leafIndex: r.leaf_index,
      anchor: anchorOf(r),
    };
  });
  const vaults = stored.map((r) => ({
    id: r.vault_id,
    tvl_usd: r.tvl_usd,
    holder_index: null,
    holdings: null,
    liquidation_cushion: null,
    free_share: null,
    largest_depositor_share: null,
    days_observed: null,
    days_traded: null,
  }));
  return { rows, coverage: summariseCoverage(vaults, rows) };
}
