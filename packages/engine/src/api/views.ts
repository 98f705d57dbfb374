import type { Anchor } from "../store/queries/anchors";
import { hex32Schema, addressSchema, uintSchema } from "./schemas";

/** An anchor as the API shows it. */
export function anchorView(anchor: Anchor) {
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
