import type { JsonRpcProvider, Log } from "ethers";
import type { Kysely } from "kysely";
import type { Store } from "../store/open";
import type { Database } from "../store/schema";
import {
  cursorOf,
  forgetAbove,
  rememberBlock,
  rememberedBelow,
  setCursor,
  type Source,
} from "../store/queries/events";

/** What the follower needs of an entry it read: its block (and that block's time, when known). */
export interface Placed {
  readonly blockNumber: number;
  readonly blockHash: string;
  readonly blockTimestamp?: number;
}

/**
 * What one contract's events become in the store; the follower handles blocks, batches and
 * reorgs. Entries are the contract's logs, unless the handler reads something else (`read`).
 */
export interface EventHandler<E extends Placed = Log> {
  /** topic0 of every event to read. */
  readonly topics: readonly string[];
  /** Reads a range's entries itself (e.g. block transactions); absent: eth_getLogs with `topics`. */
  read?(provider: ChainReader, fromBlock: number, toBlock: number): Promise<readonly E[]>;
  /** Stores the entries of one batch, inside the batch's transaction; returns how many were new. */
  store(trx: Kysely<Database>, logs: readonly E[], timestamps: ReadonlyMap<string, number>): Promise<number>;
  /** Deletes what came from blocks above `block` (reorganised away); throws if that is too late. */
  rollback(trx: Kysely<Database>, block: number): Promise<number>;
  /** Acts on events now buried under enough blocks (up to and including `through`). */
  promote(store: Store, through: number): Promise<number>;
}

/** The JSON-RPC calls the follower makes (a JsonRpcProvider, or Hardhat's in-process provider). */
export interface ChainReader extends Pick<JsonRpcProvider, "getLogs" | "getBlock"> {
  send(method: string, params: unknown[]): Promise<unknown>;
}

export interface FollowOptions {
  readonly store: Store;
  readonly provider: ChainReader;
  readonly source: Source;
  /** First block to read (the contract's deployment block, or earlier). */
  readonly startBlock: number;
  /** Blocks an event must be under before it is promoted (1 = mined). */
  readonly confirmations: number;
  /** Widest block range one eth_getLogs call asks for (providers cap it). */
  readonly batchBlocks?: number;
}

export interface FollowReport {
  readonly latest: number;
  readonly cursor: number;
  readonly stored: number;
  /** Events deleted because their block was reorganised away. */
  readonly rolledBack: number;
  readonly promoted: number;
}

/**
 * Follows one contract's events: reads forward from a cursor in batches, remembers the hash of
 * every block it took events from (and of each batch's last block), and on every poll first
 * checks those hashes against the chain. A changed hash means a reorg: the events of every block
 * above the newest still-canonical remembered block are deleted and read again, so a reorganised
 * event is rolled back, never duplicated. Events only take effect (`promote`) once confirmed.
 */
export class EventFollower<E extends Placed = Log> {
  constructor(
    private readonly options: FollowOptions,
    private readonly handler: EventHandler<E>,
  ) {}

  async poll(): Promise<FollowReport> {
    const { store, provider, source, startBlock, confirmations } = this.options;
    const batch = this.options.batchBlocks ?? 2000;
    const latest = Number(await provider.send("eth_blockNumber", []));
    const rolledBack = await this.unwindReorg(latest);

    let cursor = (await cursorOf(store.db, source)) ?? startBlock - 1;
    let stored = 0;
    while (cursor < latest) {
      const to = Math.min(latest, cursor + batch);
      const logs = this.handler.read
        ? await this.handler.read(provider, cursor + 1, to)
        : ((await provider.getLogs({
            address: source.address,
            topics: [[...this.handler.topics]],
            fromBlock: cursor + 1,
            toBlock: to,
          })) as unknown as readonly E[]); // E is Log when the handler reads logs
      const end = await provider.getBlock(to);
      if (!end) break; // the node is behind its own eth_blockNumber: next poll
      const timestamps = new Map<string, number>([[end.hash!.toLowerCase(), end.timestamp]]);
      const blocks = new Map<number, string>([[to, end.hash!.toLowerCase()]]);
      for (const log of logs) {
        const hash = log.blockHash.toLowerCase();
        blocks.set(log.blockNumber, hash);
        if (log.blockTimestamp !== undefined) timestamps.set(hash, log.blockTimestamp);
        if (timestamps.has(hash)) continue;
        const block = await provider.getBlock(log.blockHash);
        if (!block) throw new Error(`block ${log.blockHash} vanished while indexing`);
        timestamps.set(hash, block.timestamp);
      }
      const from = cursor;
      stored += await store.db.transaction().execute(async (trx) => {
        // A concurrent follower may have read this range meanwhile: only the cursor's owner writes.
        if (((await cursorOf(trx, source)) ?? startBlock - 1) !== from) return 0;
        const fresh = await this.handler.store(trx, logs, timestamps);
        for (const [number, hash] of blocks) await rememberBlock(trx, source, number, hash);
        await setCursor(trx, source, to);
        return fresh;
      });
      cursor = to;
    }
    const promoted = await this.handler.promote(store, latest - confirmations + 1);
    return { latest, cursor, stored, rolledBack, promoted };
  }

  /** Finds the newest remembered block still on the chain and rolls back everything above it. */
  private async unwindReorg(latest: number): Promise<number> {
    const { store, provider, source, startBlock } = this.options;
    let canonical: number | undefined;
    let changed = false;
    // Newest first, a page at a time: normally the newest remembered block still matches and one
    // lookup settles it.
    let below = Number.MAX_SAFE_INTEGER;
    walk: for (;;) {
      const page = await rememberedBelow(store.db, source, below, 64);
      for (const row of page) {
        const block = row.block_number > latest ? null : await provider.getBlock(row.block_number);
        if (block && block.hash!.toLowerCase() === row.block_hash) {
          canonical = row.block_number; // hashes chain: every older block is canonical too
          break walk;
        }
        changed = true;
      }
      if (page.length < 64) break;
      below = page[page.length - 1]!.block_number;
    }
    if (!changed) return 0;
    const keep = canonical ?? startBlock - 1;
    return store.db.transaction().execute(async (trx) => {
      const removed = await this.handler.rollback(trx, keep);
      await forgetAbove(trx, source, keep);
      await setCursor(trx, source, keep);
      return removed;
    });
  }
}
