import { summariseCoverage, type RiskCoverage, type RiskRow } from "@augur/scorer";
import type { ScoreAnchorColumns } from "../store/queries/scores";
import type { StoredRiskRow } from "../store/queries/risk";

export type ServedRiskRow = RiskRow & {
  methodology: string;
  seal: string;
  leafIndex: number;
  anchor: Record<string, unknown> & { status: "pending" | "anchored" };
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
      seal: r.seal,
      leafIndex: r.leaf_index,
      anchor:
        r.anchor_index === null
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
            },
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
