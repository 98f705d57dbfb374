import type { Hex32 } from "@augur/scorer";
import type { AnchorReceipt, Keeper, LogHead } from "./seam";
import type { Store } from "../store/open";
import { latestAnchor, recordAnchorOnce, type Anchor } from "../store/queries/anchors";

/** What anchoring the log's current head came to. */
export type HeadOutcome =
  | { readonly kind: "empty" }
  | { readonly kind: "current"; readonly treeSize: number }
  | { readonly kind: "anchored"; readonly receipt: AnchorReceipt }
  | { readonly kind: "pending"; readonly treeSize: number };

/** The log's head now. */
export async function currentHead(store: Pick<Store, "db" | "log">): Promise<LogHead> {
  const treeSize = await store.log.size(store.db);
  return { treeSize, root: await store.log.root(store.db, treeSize) };
}

export function receiptOf(anchor: Anchor): AnchorReceipt {
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

/** Stores a mined receipt once; a receipt already stored (same index and head) is a no-op. */
export async function recordAnchor(store: Store, receipt: AnchorReceipt, now: number): Promise<void> {
  await recordAnchorOnce(store, {
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
}

/**
 * Anchors the current head, the one way both the cycle and `augur keeper` do it: has the keeper
 * anchor `head` (the log's head now, unless given) unless the newest stored anchor already covers
 * it, and stores the mined receipt (once, checked against the log).
 */
export async function anchorCurrentHead(
  store: Store,
  keeper: Keeper,
  now: () => number,
  head?: LogHead,
): Promise<HeadOutcome> {
  // Before the "already anchored" check: it may settle a crash's nonce, whatever the head.
  const settled = await keeper.catchUp?.();
  const { treeSize, root } = head ?? (await currentHead(store));
  if (settled === "pending") return { kind: "pending", treeSize }; // waited once already
  if (treeSize === 0) return { kind: "empty" };
  const previous = await latestAnchor(store.db);
  if (previous && previous.tree_size >= treeSize) return { kind: "current", treeSize };
  const receipt = await keeper.anchor({ treeSize, root }, previous ? receiptOf(previous) : undefined);
  if (!receipt) return { kind: "pending", treeSize };
  await recordAnchor(store, receipt, now());
  return { kind: "anchored", receipt };
}
