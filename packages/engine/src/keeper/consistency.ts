import { verifyConsistency, type Hex32 } from "@augur/scorer";
import type { Kysely } from "kysely";
import { MerkleLogStore } from "../store/merkle/log-store";
import type { Database } from "../store/schema";
import { KeeperDivergedError } from "./errors";

const log = new MerkleLogStore();

/**
 * The consistency proof from the stored log's head of `fromSize` to `toSize`, checked with the
 * scorer's own verifier before it goes into a transaction: a wrong proof costs gas and a nonce,
 * the check here a few hashes.
 */
export async function storedConsistencyProof(
  db: Kysely<Database>,
  fromSize: number,
  toSize: number,
): Promise<{ fromRoot: Hex32; toRoot: Hex32; proof: Hex32[] }> {
  const fromRoot = await log.root(db, fromSize);
  const toRoot = await log.root(db, toSize);
  const proof = await log.consistencyProof(db, fromSize, toSize);
  if (fromSize > 0 && !verifyConsistency({ fromSize, toSize, fromRoot, toRoot, proof })) {
    throw new KeeperDivergedError(`the stored log fails its own consistency check ${fromSize} → ${toSize}`);
  }
  return { fromRoot, toRoot, proof };
}
