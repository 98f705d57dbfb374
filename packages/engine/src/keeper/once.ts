import { recordAnchor } from "../cycle/run";
import type { AnchorReceipt, Keeper } from "../cycle/seams";
import { MerkleLogStore } from "../store/merkle/log-store";
import type { Store } from "../store/open";
import { latestAnchor } from "../store/queries/anchors";

const log = new MerkleLogStore();

export type KeepOutcome =
  | { readonly kind: "empty" }
  | { readonly kind: "current"; readonly treeSize: number }
  | { readonly kind: "anchored"; readonly receipt: AnchorReceipt }
  | { readonly kind: "pending"; readonly treeSize: number };

/**
 * One keeper pass outside the cycle (`augur keeper`): anchor the log's current head unless the
 * store already holds an anchor of it, and store the mined receipt (once, checked against the log).
 */
export async function keepOnce(store: Store, keeper: Keeper, now: () => number): Promise<KeepOutcome> {
  const treeSize = await log.size(store.db);
  if (treeSize === 0) return { kind: "empty" };
  const previous = await latestAnchor(store.db);
  if (previous && previous.tree_size >= treeSize) return { kind: "current", treeSize };
  const receipt = await keeper.anchor({ treeSize, root: await log.root(store.db, treeSize) }, undefined);
  if (!receipt) return { kind: "pending", treeSize };
  await recordAnchor(store, receipt, now());
  return { kind: "anchored", receipt };
}
