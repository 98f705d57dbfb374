import type { Anchor } from "../store/queries/anchors";
import type { ScoreAnchorColumns } from "../store/queries/scores";
import { hex32Schema, addressSchema, uintSchema } from "./schemas";

/** An anchor as the API shows it. */
export function anchorView(anchor: Omit<Anchor, "recorded_at">) {
  return {
    anchorIndex: anchor.anchor_index,
    treeSize: anchor.tree_size,
    root: anchor.root,
    chainId: anchor.chain_id,
    registry: anchor.registry,
    txHash: anchor.tx_hash,
    blockNumber: anchor.block_number,
    blockHash: anchor.block_hash,
    anchoredAt: anchor.anchored_at,
  };
}

export const anchorViewSchema = {
  type: "object",
  required: ["anchorIndex", "treeSize", "root", "chainId", "registry", "txHash", "blockNumber", "blockHash"],
  properties: {
    anchorIndex: uintSchema,
    treeSize: uintSchema,
    root: hex32Schema,
    chainId: uintSchema,
    registry: addressSchema,
    txHash: hex32Schema,
    blockNumber: uintSchema,
    blockHash: hex32Schema,
    anchoredAt: { ...uintSchema, description: "block timestamp, unix seconds" },
  },
} as const;

/** A sealed row's anchor as served: pending until some anchor's tree covers its leaf. */
export function anchorStatus(
  columns: ScoreAnchorColumns,
): { status: "pending" } | ({ status: "anchored" } & ReturnType<typeof anchorView>) {
  const c = columns;
  if (c.anchor_index === null) return { status: "pending" };
  // A left join fills every anchor column or none: the index being set means all are.
  return { status: "anchored", ...anchorView(c as { [K in keyof typeof c]: NonNullable<(typeof c)[K]> }) };
}

export const anchorStatusSchema = {
  type: "object",
  required: ["status"],
  properties: { status: { type: "string", enum: ["pending", "anchored"] }, ...anchorViewSchema.properties },
} as const;
