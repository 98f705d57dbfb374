import { AugurError, leafHash, nodeHash, toHex32, hex32Bytes, merkleRoot, type Hex32 } from "@augur/scorer";
import { sql, type Kysely } from "kysely";
import { insertBatched } from "../batch";
import { preparedInsert, preparedQuery } from "../prepared";
import type { Database } from "../schema";
import { completeSubtrees, consistencyRanges, inclusionRanges, type SubtreeKey } from "./subtrees";

type Db = Kysely<Database>;

const leafSeal = preparedQuery(
  (db, index: number) => db.selectFrom("merkle_leaves").select("seal").where("leaf_index", "=", index),
  1,
);

/** A leaf index or tree size outside the log. */
export class LogRangeError extends AugurError {
  override readonly name = "LogRangeError";
  constructor(problem: string) {
    super("LOG_RANGE", problem);
  }
}

/**
 * Complete subtrees of fewer than 2^STORED_FROM_LEVEL leaves are not stored: a root or proof needs
 * at most one of them per level below it, hashed from at most 2^(STORED_FROM_LEVEL − 1) leaves
 * read by index. Storing them was two node rows per appended leaf (the leaf's own hash among
 * them), a fifth of a seeded store; from this level up it is one row per 8 leaves.
 */
export const STORED_FROM_LEVEL = 4;

/**
 * The engine's RFC 6962 log, persisted: leaves (index → seal) and every complete subtree hash of
 * STORED_FROM_LEVEL and up (lower ones hashed from their leaves), so a root or an inclusion proof
 * of any size is O(log n) row reads, never a rebuild.
 *
 * Appends must run inside a transaction that first called `lockForAppend` (the store's one
 * writer lock), so two writers can never claim the same index.
 */
export class MerkleLogStore {
  /** Takes the log's writer lock for the rest of the transaction; call it first. */
  async lockForAppend(trx: Db): Promise<void> {
    await trx
      .updateTable("log_writer")
      .set({ version: sql<number>`version + 1` })
      .where("id", "=", 1)
      .execute();
  }

  async size(db: Db): Promise<number> {
    const [row] = await lastLeaf(db);
    return row?.last == null ? 0 : Number(row.last) + 1;
  }

  async leafIndexOf(db: Db, seal: Hex32): Promise<number | undefined> {
    const row = await db
      .selectFrom("merkle_leaves")
      .select("leaf_index")
      .where("seal", "=", seal)
      .executeTakeFirst();
    return row?.leaf_index;
  }

  /** The seal at leaf `index`, or undefined beyond the log. */
  async sealAt(db: Db, index: number): Promise<string | undefined> {
    const [row] = await leafSeal(db, index);
    return row?.seal;
  }

  /** Appends seals in order; returns the index of the first. Caller holds the writer lock. */
  async append(trx: Db, seals: readonly Hex32[], at: number): Promise<number> {
    return (await this.appender(trx)).append(trx, seals, at);
  }

  /**
   * An appender for many appends in one transaction (a batch of record submissions): the log's
   * size and right edge are read once, not once per append. Caller holds the writer lock, and
   * nothing else appends to the log in that transaction meanwhile.
   */
  async appender(trx: Db): Promise<LogAppender> {
    const size = await this.size(trx);
    return new LogAppender(size, await this.frontier(trx, size));
  }

  /** The Merkle Tree Hash of the first `treeSize` leaves. */
  async root(db: Db, treeSize: number): Promise<Hex32> {
    await this.assertSize(db, treeSize);
    if (treeSize === 0) return merkleRoot([]);
    const keys = completeSubtrees(0, treeSize);
    return toHex32(fold(keys, await this.nodes(db, keys)));
  }

  /** RFC 9162 inclusion proof of leaf `leafIndex` in the tree of the first `treeSize` leaves. */
  async inclusionProof(db: Db, leafIndex: number, treeSize: number): Promise<Hex32[]> {
    await this.assertSize(db, treeSize);
    if (!Number.isSafeInteger(leafIndex) || leafIndex < 0 || leafIndex >= treeSize) {
      throw new LogRangeError(`leaf ${leafIndex} is not in a tree of ${treeSize}`);
    }
    // The RFC 9162 path, each element the hash of one range read from persisted subtrees; the
    // tests check it equals packages/scorer's in-memory MerkleLog proof and passes its verifier.
    const ranges = inclusionRanges(leafIndex, treeSize).map(([lo, hi]) => completeSubtrees(lo, hi));
    const hashes = await this.nodes(db, ranges.flat());
    return ranges.map((keys) => toHex32(fold(keys, hashes)));
  }

  /** RFC 9162 consistency proof from the tree of `fromSize` leaves to `toSize` (what the keeper posts). */
  async consistencyProof(db: Db, fromSize: number, toSize: number): Promise<Hex32[]> {
    await this.assertSize(db, toSize);
    if (!Number.isSafeInteger(fromSize) || fromSize < 0 || fromSize > toSize) {
      throw new LogRangeError(`cannot prove size ${fromSize} consistent with size ${toSize}`);
    }
    const ranges = consistencyRanges(fromSize, toSize).map(([lo, hi]) => completeSubtrees(lo, hi));
    const hashes = await this.nodes(db, ranges.flat());
    return ranges.map((keys) => toHex32(fold(keys, hashes)));
  }

  private async assertSize(db: Db, treeSize: number): Promise<void> {
    if (!Number.isSafeInteger(treeSize) || treeSize < 0 || treeSize > (await this.size(db))) {
      throw new LogRangeError(`tree size ${treeSize} is beyond the log`);
    }
  }

  /** The right-edge complete subtrees of a log of `size` leaves, by level. */
  /** The right edge of the log's first `size` leaves: each complete subtree's hash, by level. */
  async frontier(db: Db, size: number): Promise<Map<number, Buffer>> {
    const keys = completeSubtrees(0, size);
    const hashes = await this.nodes(db, keys);
    return new Map(keys.map((k) => [k.level, hashes.get(keyOf(k))!]));
  }

  private async nodes(db: Db, keys: readonly SubtreeKey[]): Promise<Map<string, Buffer>> {
    const out = new Map<string, Buffer>();
    const stored = keys.filter((k) => k.level >= STORED_FROM_LEVEL);
    if (stored.length > 0) {
      const rows = await db
        .selectFrom("merkle_nodes")
        .select(["level", "idx", "hash"])
        .where((eb) => eb.or(stored.map((k) => eb.and([eb("level", "=", k.level), eb("idx", "=", k.idx)]))))
        .execute();
      for (const row of rows) out.set(keyOf(row), hex32Bytes(row.hash as Hex32));
    }
    const hashed = keys.filter((k) => k.level < STORED_FROM_LEVEL);
    if (hashed.length > 0) {
      // Stores written before STORED_FROM_LEVEL hold these rows too; the leaves give the same hash.
      const seals = await leafSeals(db, hashed.flatMap(leafRange));
      for (const k of hashed) {
        const leaves = leafRange(k).map((i) => seals.get(i));
        if (leaves.every((seal) => seal !== undefined)) out.set(keyOf(k), hex32Bytes(merkleRoot(leaves)));
      }
    }
    for (const k of keys) {
      if (!out.has(keyOf(k))) throw new LogRangeError(`log node (${k.level}, ${k.idx}) is missing`);
    }
    return out;
  }
}

/** Up to this many rows, an append inserts them one prepared statement each (no query building). */
const FEW_ROWS = 16;

const lastLeaf = preparedQuery(
  (db) => db.selectFrom("merkle_leaves").select((eb) => eb.fn.max<number | null>("leaf_index").as("last")),
  0,
);
const leafInsert = preparedInsert("merkle_leaves", ["leaf_index", "seal", "appended_at"]);
const nodeInsert = preparedInsert("merkle_nodes", ["level", "idx", "hash"]);

/** Appends to the log from a known size and right edge (`MerkleLogStore.appender`). */
export class LogAppender {
  constructor(
    private size: number,
    private readonly frontier: Map<number, Buffer>,
  ) {}

  /** Appends seals in order; returns the index of the first. */
  async append(trx: Db, seals: readonly Hex32[], at: number): Promise<number> {
    const first = this.size;
    if (seals.length === 0) return first;
    const nodes = appendToFrontier(this.frontier, first, seals);
    const leaves = seals.map((seal, i) => ({ leaf_index: first + i, seal, appended_at: at }));
    if (leaves.length + nodes.length <= FEW_ROWS) {
      for (const leaf of leaves) await leafInsert(trx, leaf);
      for (const node of nodes) await nodeInsert(trx, node);
    } else {
      await insertBatched(trx, "merkle_leaves", leaves);
      await insertBatched(trx, "merkle_nodes", nodes);
    }
    this.size += seals.length;
    return first;
  }
}

/** The one log instance: a store exposes it as `store.log`; store code holding only a transaction uses it here. */
export const merkleLog = new MerkleLogStore();

/** One persisted subtree hash: `(level, idx)` covers leaves [idx·2^level, (idx+1)·2^level). */
export interface LogNode {
  readonly level: number;
  readonly idx: number;
  readonly hash: string;
}

/**
 * The stored subtree rows (level STORED_FROM_LEVEL and up) that appending `seals` at index
 * `first` completes, given the log's right-edge subtree hashes by level (`frontier`, every level,
 * updated in place to the new size). Pure, so a bulk writer (the cycle bench's seeder) persists
 * exactly the rows `MerkleLogStore.append` would.
 */
export function appendToFrontier(
  frontier: Map<number, Buffer>,
  first: number,
  seals: readonly Hex32[],
): LogNode[] {
  const nodes: LogNode[] = [];
  let size = first;
  for (const seal of seals) {
    let hash = leafHash(seal);
    let level = 0;
    let idx = size;
    if (level >= STORED_FROM_LEVEL) nodes.push({ level, idx, hash: toHex32(hash) });
    while (idx % 2 === 1) {
      const left = frontier.get(level);
      if (!left) throw new LogRangeError(`log frontier is missing level ${level} at size ${size}`);
      frontier.delete(level);
      hash = nodeHash(left, hash);
      level += 1;
      idx = (idx - 1) / 2;
      if (level >= STORED_FROM_LEVEL) nodes.push({ level, idx, hash: toHex32(hash) });
    }
    frontier.set(level, hash);
    size += 1;
  }
  return nodes;
}

/** The leaf indices a complete subtree covers. */
function leafRange(k: SubtreeKey): number[] {
  const width = 2 ** k.level;
  return Array.from({ length: width }, (_, i) => k.idx * width + i);
}

/** The seals at `indices` (those in the log), by index. */
async function leafSeals(db: Db, indices: readonly number[]): Promise<Map<number, Hex32>> {
  const rows = await db
    .selectFrom("merkle_leaves")
    .select(["leaf_index", "seal"])
    .where("leaf_index", "in", indices)
    .execute();
  return new Map(rows.map((r) => [Number(r.leaf_index), r.seal as Hex32]));
}

function keyOf(k: SubtreeKey): string {
  return `${k.level}:${k.idx}`;
}

/** Hash of consecutive complete subtrees, folded from the right (RFC 6962's right-heavy split). */
function fold(keys: readonly SubtreeKey[], hashes: Map<string, Buffer>): Buffer {
  let hash = hashes.get(keyOf(keys[keys.length - 1]!))!;
  for (let i = keys.length - 2; i >= 0; i--) hash = nodeHash(hashes.get(keyOf(keys[i]!))!, hash);
  return hash;
}
