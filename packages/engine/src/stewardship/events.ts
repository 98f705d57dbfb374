import type { Log } from "ethers";
import type { LogLike, LogPlace } from "../indexer/blocks";
import type { Placed } from "../indexer/follow";
import { EventTableHandler, type EventRow } from "../indexer/event-table";
import { erc20, SWAP_TOPIC, TRANSFER_TOPIC, uniswapV3Pool } from "../chain/abi/stewardship";

const lower = (v: unknown) => String(v).toLowerCase();
const amount = (v: unknown) => (v as bigint).toString();

/**
 * The monitor's raw logs of one contract: kept as seen and rolled back on reorg, never below a
 * sealed day (it was measured up to its `through_block`, so rolling back at or below that would
 * change a published record); nothing is promoted — the daily step reads them once confirmed.
 */
export abstract class MonitoredLogs<E extends Placed & LogLike = Log> extends EventTableHandler<E> {
  protected readonly final = "stewardship days";
}

/** An ERC-20's Transfer logs (the project token's, USDG's), in `stewardship_transfers`. */
export class TokenTransferEvents extends MonitoredLogs {
  readonly topics = [TRANSFER_TOPIC];
  protected readonly tables = ["stewardship_transfers"] as const;

  protected rowsOf(entry: Log, place: LogPlace): EventRow[] {
    const parsed = erc20.parseLog(entry);
    if (!parsed || parsed.name !== "Transfer") return [];
    const row = {
      chain_id: this.source.chainId,
      token: this.source.address,
      from_address: lower(parsed.args.getValue("from")),
      to_address: lower(parsed.args.getValue("to")),
      amount: amount(parsed.args.getValue("value")),
      ...place,
    };
    return [{ table: "stewardship_transfers", row }];
  }
}

/** One monitored pool's Uniswap v3 Swap logs, in `stewardship_swaps`. */
export class PoolSwapEvents extends MonitoredLogs {
  readonly topics = [SWAP_TOPIC];
  protected readonly tables = ["stewardship_swaps"] as const;

  protected rowsOf(entry: Log, place: LogPlace): EventRow[] {
    const parsed = uniswapV3Pool.parseLog(entry);
    if (!parsed || parsed.name !== "Swap") return [];
    const row = {
      chain_id: this.source.chainId,
      pool: this.source.address,
      sender: lower(parsed.args.getValue("sender")),
      recipient: lower(parsed.args.getValue("recipient")),
      amount0: amount(parsed.args.getValue("amount0")),
      amount1: amount(parsed.args.getValue("amount1")),
      ...place,
    };
    return [{ table: "stewardship_swaps", row }];
  }
}
