import type { Hex32 } from "../../hex";
import { type MerkleFrontier, MerkleRootBuilder } from "../../merkle/root";

/**
 * Each frozen frontier's root, by the frontier object: a fold keeps the very object of a list that
 * got no new rows (advance.ts returns it as it was), so an hour computes roots only where an input
 * changed, and the fold that changed a list hands its root over with the frontier (`frontierOf`),
 * so the manifest does not rebuild the tree from the frontier's hex. Only a frozen frontier (the
 * builder's, or one read by parseStateText) is remembered, since only that can never change under
 * the cache.
 */
const roots = new WeakMap<MerkleFrontier, Hex32>();

/** The root of the leaves `frontier` describes. */
export function rootOf(frontier: MerkleFrontier): Hex32 {
  const known = roots.get(frontier);
  if (known !== undefined) return known;
  const root = MerkleRootBuilder.fromFrontier(frontier).root();
  if (Object.isFrozen(frontier) && Object.isFrozen(frontier.nodes)) roots.set(frontier, root);
  return root;
}

/** The builder's frontier (frozen), its root remembered for `rootOf`. */
export function frontierOf(builder: MerkleRootBuilder): MerkleFrontier {
  const frontier = builder.frontier();
  roots.set(frontier, builder.root());
  return frontier;
}
