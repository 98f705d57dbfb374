import { verifyConsistency, type Hex32 } from "@augur/scorer";
import type { Store } from "../store/open";
import { KeeperDivergedError } from "./errors";

/**
 * The consistency proof from the stored log's head of `fromSize` to `toSize`, checked with the
 * scorer's own verifier before it goes into a transaction: a wrong proof costs gas and a nonce,
 * the check here a few hashes.
 */
export async function storedConsistencyProof(
  store: Pick<Store, "db" | "log">,
  fromSize: number,
  toSize: number,
): Promise<{ fromRoot: Hex32; toRoot: Hex32; proof: Hex32[] }> {
  const fromRoot = await store.log.root(store.db, fromSize);
  const toRoot = await store.log.root(store.db, toSize);
  const proof = await store.log.consistencyProof(store.db, fromSize, toSize);
  if (fromSize > 0 && !verifyConsistency({ fromSize, toSize, fromRoot, toRoot, proof })) {
    throw new KeeperDivergedError(`the stored log fails its own consistency check ${fromSize} → ${toSize}`);
  }
  return { fromRoot, toRoot, proof };
}
