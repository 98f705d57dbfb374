import type { Log } from "ethers";
import type { Kysely } from "kysely";
import type { Source } from "../indexer/blocks";
import { ReorgTooDeepError } from "../indexer/errors";
import type { EventHandler } from "../indexer/follow";
import type { Database } from "../store/schema";
import { erc20, SWAP_TOPIC, TRANSFER_TOPIC, uniswapV3Pool } from "./abi";

const lower = (v: unknown) => String(v).toLowerCase();

function placeOf(entry: Log, timestamps: ReadonlyMap<string, number>) {
  return {
    block_number: entry.blockNumber,
    block_hash: entry.blockHash.toLowerCase(),
    block_timestamp: timestamps.get(entry.blockHash.toLowerCase())!,
    tx_hash: entry.transactionHash.toLowerCase(),
    log_index: entry.index,
  };
}

/**
 * A sealed day was measured up to its `through_block`: rolling back at or below that block would
 * change a published record, so the reorg is deeper than the confirmations and a person must look.
 */
async function refuseBelowSealedDays(trx: Kysely<Database>, block: number, confirmations: number) {
  const sealed = await trx
    .selectFrom("stewardship_days")
    .select((eb) => eb.fn.max<number | null>("through_block").as("through"))
    .executeTakeFirst();
  if (sealed?.through != null && Number(sealed.through) > block) {
    throw new ReorgTooDeepError(block + 1, confirmations, "a stewardship day measured up to it");
  }
}

/**
 * The project token's ERC-20 Transfer logs, kept as seen in `stewardship_transfers` and rolled
 * back on reorg; nothing is promoted: the daily step reads them once they are confirmed.
 */
export class TokenTransferEvents implements EventHandler {
  readonly topics = [TRANSFER_TOPIC];

  constructor(
    private readonly source: Source,
    private readonly confirmations: number,
  ) {}

  async store(
    trx: Kysely<Database>,
    logs: readonly Log[],
    timestamps: ReadonlyMap<string, number>,
  ): Promise<number> {
    let fresh = 0;
    for (const entry of logs) {
      const parsed = erc20.parseLog(entry);
      if (!parsed || parsed.name !== "Transfer") continue;
      const result = await trx
        .insertInto("stewardship_transfers")
        .values({
          chain_id: this.source.chainId,
          token: this.source.address,
          from_address: lower(parsed.args.getValue("from")),
          to_address: lower(parsed.args.getValue("to")),
          amount: (parsed.args.getValue("value") as bigint).toString(),
          ...placeOf(entry, timestamps),
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      fresh += Number(result.numInsertedOrUpdatedRows ?? 0n);
    }
    return fresh;
  }

  async rollback(trx: Kysely<Database>, block: number): Promise<number> {
    await refuseBelowSealedDays(trx, block, this.confirmations);
    const result = await trx
      .deleteFrom("stewardship_transfers")
      .where("chain_id", "=", this.source.chainId)
      .where("token", "=", this.source.address)
      .where("block_number", ">", block)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async promote(): Promise<number> {
    return 0;
  }
}

/** One monitored pool's Uniswap v3 Swap logs, kept as seen in `stewardship_swaps`. */
export class PoolSwapEvents implements EventHandler {
  readonly topics = [SWAP_TOPIC];

  constructor(
    private readonly source: Source,
    private readonly confirmations: number,
  ) {}

  async store(
    trx: Kysely<Database>,
    logs: readonly Log[],
    timestamps: ReadonlyMap<string, number>,
  ): Promise<number> {
    let fresh = 0;
    for (const entry of logs) {
      const parsed = uniswapV3Pool.parseLog(entry);
      if (!parsed || parsed.name !== "Swap") continue;
      const result = await trx
        .insertInto("stewardship_swaps")
        .values({
          chain_id: this.source.chainId,
          pool: this.source.address,
          sender: lower(parsed.args.getValue("sender")),
          recipient: lower(parsed.args.getValue("recipient")),
          amount0: (parsed.args.getValue("amount0") as bigint).toString(),
          amount1: (parsed.args.getValue("amount1") as bigint).toString(),
          ...placeOf(entry, timestamps),
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      fresh += Number(result.numInsertedOrUpdatedRows ?? 0n);
    }
    return fresh;
  }

  async rollback(trx: Kysely<Database>, block: number): Promise<number> {
    await refuseBelowSealedDays(trx, block, this.confirmations);
    const result = await trx
      .deleteFrom("stewardship_swaps")
      .where("chain_id", "=", this.source.chainId)
      .where("pool", "=", this.source.address)
      .where("block_number", ">", block)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async promote(): Promise<number> {
    return 0;
  }
}
