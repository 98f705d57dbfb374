import { hex32Bytes, nodeHash, toHex32, verifyConsistency, type Hex32 } from "@augur/scorer";
import type { Kysely } from "kysely";
import { MerkleLogStore } from "../store/merkle/log-store";
import { completeSubtrees, splitPoint } from "../store/merkle/subtrees";
import type { Database } from "../store/schema";
import { KeeperDivergedError } from "./errors";

/**
 * The leaf ranges whose hashes form RFC 9162 §2.1.4.1's consistency proof from `m` to `n` leaves
 * (0 < m ≤ n), in proof order. Each range starts at a multiple of a power of two at least its
 * length, so its hash is a right fold of persisted complete subtrees.
 */
export function consistencyRanges(m: number, n: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const sub = (m: number, lo: number, hi: number, whole: boolean): void => {
    if (m === hi - lo) {
      if (!whole) out.push([lo, hi]);
      return;
    }
    const k = splitPoint(hi - lo);
    if (m <= k) {
      sub(m, lo, lo + k, whole);
      out.push([lo + k, hi]);
    } else {
      sub(m - k, lo + k, hi, false);
      out.push([lo, lo + k]);
    }
  };
  sub(m, 0, n, true);
  return out;
}

async function rangeHashes(db: Kysely<Database>, ranges: Array<[number, number]>): Promise<Hex32[]> {
  const keys = ranges.map(([lo, hi]) => completeSubtrees(lo, hi));
  const wanted = keys.flat();
  const hashes = new Map<string, Buffer>();
  for (let i = 0; i < wanted.length; i += 200) {
    const batch = wanted.slice(i, i + 200);
    const rows = await db
      .selectFrom("merkle_nodes")
      .select(["level", "idx", "hash"])
      .where((eb) => eb.or(batch.map((k) => eb.and([eb("level", "=", k.level), eb("idx", "=", k.idx)]))))
      .execute();
    for (const row of rows) hashes.set(`${row.level}:${row.idx}`, hex32Bytes(row.hash as Hex32));
  }
  return keys.map((range) => {
    const get = (i: number) => {
      const hash = hashes.get(`${range[i]!.level}:${range[i]!.idx}`);
      if (!hash) throw new KeeperDivergedError(`log node (${range[i]!.level}, ${range[i]!.idx}) is missing`);
      return hash;
    };
    // RFC 6962 splits right-heavy: fold the complete subtrees from the right.
    let hash = get(range.length - 1);
    for (let i = range.length - 2; i >= 0; i--) hash = nodeHash(get(i), hash);
    return toHex32(hash);
  });
}

const log = new MerkleLogStore();

/**
 * The consistency proof from the stored log's head of `fromSize` to `toSize`, checked with the
 * scorer's own verifier before it is handed to a transaction: a wrong proof costs gas and a
 * nonce, a check here costs a few hashes.
 */
export async function storedConsistencyProof(
  db: Kysely<Database>,
  fromSize: number,
  toSize: number,
): Promise<{ fromRoot: Hex32; toRoot: Hex32; proof: Hex32[] }> {
  const fromRoot = await log.root(db, fromSize);
  const toRoot = await log.root(db, toSize);
  const proof = fromSize === 0 ? [] : await rangeHashes(db, consistencyRanges(fromSize, toSize));
  if (fromSize > 0 && !verifyConsistency({ fromSize, toSize, fromRoot, toRoot, proof })) {
    throw new KeeperDivergedError(`the stored log fails its own consistency check ${fromSize} → ${toSize}`);
  }
  return { fromRoot, toRoot, proof };
}
