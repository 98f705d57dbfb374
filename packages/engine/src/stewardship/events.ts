import type { Log } from "ethers";
import type { Kysely } from "kysely";
import { logPlace, type LogPlace, type Source } from "../indexer/blocks";
import { ReorgTooDeepError } from "../indexer/errors";
import type { EventHandler } from "../indexer/follow";
import type { Database } from "../store/schema";
import { erc20, SWAP_TOPIC, TRANSFER_TOPIC, uniswapV3Pool } from "../chain/abi/stewardship";

const lower = (v: unknown) => String(v).toLowerCase();
const amount = (v: unknown) => (v as bigint).toString();

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
 * The monitor's raw logs of one contract: kept as seen and rolled back on reorg (never below a
 * sealed day); nothing is promoted — the daily step reads them once they are confirmed.
 */
abstract class MonitoredLogs implements EventHandler {
  abstract readonly topics: readonly string[];

  constructor(
    protected readonly source: Source,
    private readonly confirmations: number,
  ) {}

  /** Stores one log if it is this handler's event (a log seen before is skipped); returns rows added. */
  protected abstract insert(trx: Kysely<Database>, entry: Log, place: LogPlace): Promise<number>;

  /** Deletes this contract's rows from blocks above `block`. */
  protected abstract deleteAbove(trx: Kysely<Database>, block: number): Promise<bigint>;

  async store(
    trx: Kysely<Database>,
    logs: readonly Log[],
    timestamps: ReadonlyMap<string, number>,
  ): Promise<number> {
    let fresh = 0;
    for (const entry of logs) fresh += await this.insert(trx, entry, logPlace(entry, timestamps));
    return fresh;
  }

  async rollback(trx: Kysely<Database>, block: number): Promise<number> {
    await refuseBelowSealedDays(trx, block, this.confirmations);
    return Number(await this.deleteAbove(trx, block));
  }

  async promote(): Promise<number> {
    return 0;
  }
}

/** The project token's ERC-20 Transfer logs, in `stewardship_transfers`. */
export class TokenTransferEvents extends MonitoredLogs {
  readonly topics = [TRANSFER_TOPIC];

  protected async insert(trx: Kysely<Database>, entry: Log, place: LogPlace): Promise<number> {
    const parsed = erc20.parseLog(entry);
    if (!parsed || parsed.name !== "Transfer") return 0;
    const result = await trx
      .insertInto("stewardship_transfers")
      .values({
        chain_id: this.source.chainId,
        token: this.source.address,
        from_address: lower(parsed.args.getValue("from")),
        to_address: lower(parsed.args.getValue("to")),
        amount: amount(parsed.args.getValue("value")),
        ...place,
      })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n);
  }

  protected async deleteAbove(trx: Kysely<Database>, block: number): Promise<bigint> {
    const result = await trx
      .deleteFrom("stewardship_transfers")
      .where("chain_id", "=", this.source.chainId)
      .where("token", "=", this.source.address)
      .where("block_number", ">", block)
      .executeTakeFirst();
    return result.numDeletedRows;
  }
}

/** One monitored pool's Uniswap v3 Swap logs, in `stewardship_swaps`. */
export class PoolSwapEvents extends MonitoredLogs {
  readonly topics = [SWAP_TOPIC];

  protected async insert(trx: Kysely<Database>, entry: Log, place: LogPlace): Promise<number> {
    const parsed = uniswapV3Pool.parseLog(entry);
    if (!parsed || parsed.name !== "Swap") return 0;
    const result = await trx
      .insertInto("stewardship_swaps")
      .values({
        chain_id: this.source.chainId,
        pool: this.source.address,
        sender: lower(parsed.args.getValue("sender")),
        recipient: lower(parsed.args.getValue("recipient")),
        amount0: amount(parsed.args.getValue("amount0")),
        amount1: amount(parsed.args.getValue("amount1")),
        ...place,
      })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n);
  }

  protected async deleteAbove(trx: Kysely<Database>, block: number): Promise<bigint> {
    const result = await trx
      .deleteFrom("stewardship_swaps")
      .where("chain_id", "=", this.source.chainId)
      .where("pool", "=", this.source.address)
      .where("block_number", ">", block)
      .executeTakeFirst();
    return result.numDeletedRows;
  }
}
